import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildToolArguments, drawReasoningTokens, reasoningEnabled, splitIntoPieces } from './chat-answer.js';

const pool = { ids: Int32Array.from([1, 2]), texts: [' paris', ' rome'] };

test('reasoning follows the parser and chat_template_kwargs', () => {
  assert.equal(reasoningEnabled(null, null), false);
  assert.equal(reasoningEnabled('qwen3', null), true);
  assert.equal(reasoningEnabled('qwen3', { enable_thinking: false }), false);
  assert.equal(reasoningEnabled('deepseek-v3', null), false);
  assert.equal(reasoningEnabled('deepseek-v3', { thinking: true }), true);
});

test('reasoning share leaves at least one content token', () => {
  for (let i = 0; i < 50; i++) {
    const r = drawReasoningTokens(10, 1, i);
    assert.ok(r >= 1 && r <= 9);
  }
  assert.equal(drawReasoningTokens(1, 1, 0), 0);
});

test('tool arguments follow the schema and pieces concatenate back', () => {
  const args = JSON.parse(
    buildToolArguments({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, unit: { enum: ['c', 'f'] } }, required: ['city', 'unit'] }, pool, 1, 0),
  );
  assert.deepEqual(Object.keys(args), ['city', 'unit']);
  assert.match(args.city, /^(paris|rome)( (paris|rome))*$/);
  assert.equal(args.unit, 'c');
  const pieces = splitIntoPieces('{"city": "paris"}', 5);
  assert.equal(pieces.length, 5);
  assert.equal(pieces.join(''), '{"city": "paris"}');
});
