import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError, UserError } from '../core/errors.js';
import { parseBenchArgs } from './args/parse.js';
import { resolveRunConfig } from './run-config.js';

describe('resolveRunConfig', () => {
  test('camelCase slices of the parsed values, frozen all the way down', () => {
    const config = resolveRunConfig(
      parseBenchArgs(['--backend', 'vllm', '--port', '9000', '--num-prompts', '7', '--max-concurrency', '3', '--lora-name', 'a', 'b', '--header', 'X-A: 1', '--no-catalog']),
    );
    assert.deepEqual(config.server, { baseUrl: null, host: '0.0.0.0', port: 9000 });
    assert.equal(config.dataset.numPrompts, 7);
    assert.equal(config.load.maxConcurrency, 3);
    assert.deepEqual(config.request.lora.names, ['a', 'b']);
    assert.deepEqual(config.request.headers, ['X-A: 1']);
    assert.equal(config.catalog.record, false);
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.load) && Object.isFrozen(config.request.lora.names));
    assert.throws(() => {
      (config.load as { maxConcurrency: number | null }).maxConcurrency = 9;
    }, TypeError);
  });
  test('the parsed namespace is left as parsed, its arrays included', () => {
    const args = parseBenchArgs(['--dataset-name', 'image', '--lora-name', 'a']);
    const config = resolveRunConfig(args);
    assert.equal(config.dataset.applyChatTemplate, true, 'image datasets force the chat template');
    assert.equal(args.apply_chat_template, false);
    assert.ok(!Object.isFrozen(args.lora_name) && !Object.isFrozen(args.profile_activities));
  });
  test('--extra-request-body is parsed once; a prediction takes the launch flags model when --model names none', () => {
    const config = resolveRunConfig(parseBenchArgs(['--extra-request-body', '{"top_p": 0.5}']), { defaultModel: 'org/m' });
    assert.deepEqual(config.request.extraBody, { top_p: 0.5 });
    assert.equal(config.model, 'org/m');
    assert.equal(resolveRunConfig(parseBenchArgs(['--model', 'x']), { defaultModel: 'org/m' }).model, 'x');
    assert.equal(resolveRunConfig(parseBenchArgs([])).model, null);
  });
  test('the JSON of --extra-request-body is checked before the other start-up checks, as bench_serving does', () => {
    assert.throws(() => resolveRunConfig(parseBenchArgs(['--backend', 'gserver', '--extra-request-body', '{'])), UsageError);
    assert.throws(() => resolveRunConfig(parseBenchArgs(['--backend', 'gserver'])), UserError);
  });
});
