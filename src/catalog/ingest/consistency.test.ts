import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkAgainstArgs, checkBlockArithmetic } from './consistency.js';

test('a stated rate, concurrency or backend the arguments contradict is a warning', () => {
  assert.deepEqual(checkAgainstArgs({ request_rate: 64, max_concurrency: 1 }, { max_concurrency: 1 }, true), [
    'result block states request rate 64.0 but the bench command does not set --request-rate (default inf)',
  ]);
  assert.deepEqual(checkAgainstArgs({ request_rate: 2.5, max_concurrency: null, backend: 'vllm' }, { request_rate: 4, max_concurrency: 8, backend: 'sglang' }, false), [
    'result block states request rate 2.5 but the arguments say 4.0',
    'result block states max concurrency not set but the arguments say 8',
    'result block states backend vllm but the arguments say sglang',
  ]);
  assert.deepEqual(checkAgainstArgs({ request_rate: Infinity, completed: 9996 }, { request_rate: Infinity, num_prompts: 10000, dataset_name: 'random' }, false), [
    '9996 of 10000 requests succeeded',
  ]);
  assert.deepEqual(checkAgainstArgs({ request_rate: 64 }, null, true), []);
});

test('throughputs must agree with totals over the (rounded) duration', () => {
  // qwen2.5 reference: 1653 tokens / 0.59 s = 2801.7, stated 2781.41 — within the rounding of 0.59.
  assert.deepEqual(checkBlockArithmetic({ duration: 0.59, total_output_tokens: 1653, output_throughput: 2781.41, completed: 200, request_throughput: 336.53 }), []);
  assert.deepEqual(checkBlockArithmetic({ duration: 100, total_output_tokens: 6000, output_throughput: 80, input_throughput: 10, total_throughput: 95 }), [
    'output token throughput 80 disagrees with 6000 / 100 s = 60.00',
    'total token throughput 95 is not input 10 + output 80',
  ]);
});
