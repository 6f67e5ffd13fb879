import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, redactArgs, isSecretName } from './redact.js';

test('header values and API keys are hidden, other args kept', () => {
  const out = redactArgs({
    header: ['Authorization=Bearer sk-1', 'X-Trace=abc'],
    api_key: 'sk-2',
    tokenizer: 'Qwen/Qwen3',
    extensions: { OPENAI_API_KEY: 'sk-3', labels: { cards: '8' } },
  });
  assert.deepEqual(out, {
    header: [`Authorization=${REDACTED}`, `X-Trace=${REDACTED}`],
    api_key: REDACTED,
    tokenizer: 'Qwen/Qwen3',
    extensions: { OPENAI_API_KEY: REDACTED, labels: { cards: '8' } },
  });
  assert.equal(JSON.stringify(out).includes('sk-'), false);
});

test('a header entry without = is hidden whole, as the printed Namespace hides it', () => {
  const out = redactArgs({ header: ['Authorization: Bearer sk-1', 'X-Trace=abc'] });
  assert.deepEqual(out, { header: [REDACTED, `X-Trace=${REDACTED}`] });
});

test('tokenizer-like names are not secrets', () => {
  assert.equal(isSecretName('tokenize_prompt'), false);
  assert.equal(isSecretName('max_total_tokens'), false);
  assert.equal(isSecretName('--admin-api-key'), true);
});
