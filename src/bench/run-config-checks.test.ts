import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../core/errors.js';
import { resolveRunConfig, TRT_NEEDS_MODEL } from './run-config.js';
import { parseBenchArgs } from './args/parse.js';

const resolve = (argv: string[]) => resolveRunConfig(parseBenchArgs(argv));

function validationError(argv: string[]): UserError {
  try {
    resolve(argv);
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  assert.fail(`expected a UserError for ${argv.join(' ')}`);
}

describe('validateRunConfig (through resolveRunConfig)', () => {
  test('accepts the defaults and --print-requests with any backend', () => {
    resolve([]);
    resolve(['--print-requests', '--backend', 'vllm']);
  });
  test('--tokenize-prompt needs the sglang backend', () => {
    assert.match(validationError(['--tokenize-prompt', '--backend', 'vllm']).message, /--tokenize-prompt only works with --backend sglang/);
    resolve(['--tokenize-prompt']);
  });
  test('trt needs --model (bench_serving message), gserver is refused', () => {
    assert.equal(validationError(['--backend', 'trt']).message, TRT_NEEDS_MODEL);
    resolve(['--backend', 'trt', '--model', 'm']);
    assert.match(validationError(['--backend', 'gserver']).message, /gserver is not implemented/);
  });
  test('image and mmmu force the chat template and refuse token prompts', () => {
    const args = parseBenchArgs(['--dataset-name', 'image']);
    assert.equal(resolveRunConfig(args).dataset.applyChatTemplate, true);
    assert.equal(args.apply_chat_template, false, 'the parsed namespace is left as parsed');
    assert.match(validationError(['--dataset-name', 'mmmu', '--tokenize-prompt']).message, /cannot be used with --dataset-name mmmu/);
  });
  test('a --header entry with no separator is refused without echoing it; both forms and empty values pass', () => {
    const error = validationError(['--header', 'X-Ok: 1', 'sk-SECRET-no-separator']);
    assert.match(error.message, /--header entry without ':' or '='.*'Key: Value' or Key=Value/);
    assert.doesNotMatch(error.message, /SECRET/);
    resolve(['--header', 'X-A: 1', 'X-B=2', 'X-Empty=']);
  });
  test('distinct and skewed LoRA distributions need two adapters', () => {
    assert.match(validationError(['--lora-request-distribution', 'skewed', '--lora-name', 'a']).message, /needs at least two adapters/);
    resolve(['--lora-request-distribution', 'distinct', '--lora-name', 'a', 'b']);
  });
  test('--cooldown needs repeated runs; --profile traces one run', () => {
    assert.match(validationError(['--cooldown', '5']).message, /^--cooldown waits between repeated runs: add --num-runs N/);
    assert.match(validationError(['--num-runs', '2', '--profile']).message, /^--profile traces one run/);
    assert.deepEqual(resolve(['--num-runs', '3', '--cooldown', '5']).repeat, { runs: 3, cooldownS: 5, confidenceLevel: 0.95 });
  });
  test('every error is one line with exit code 1', () => {
    for (const argv of [['--backend', 'trt'], ['--backend', 'gserver'], ['--tokenize-prompt', '--backend', 'vllm']]) {
      const error = validationError(argv);
      assert.equal(error.exitCode, 1);
      assert.ok(!error.message.includes('\n'));
    }
  });
});
