import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../core/errors.js';
import type { BackendName } from '../bench/args/types.js';
import { evalBackendAdapter, samplingBody } from './request-body.js';

const settings = { maxNewTokens: 512, stop: ['Question', 'Assistant:'] };

test("SGLang's /generate gets greedy sampling, the token limit and the stop strings in sampling_params", () => {
  assert.deepEqual(samplingBody(evalBackendAdapter('sglang'), settings), {
    sampling_params: { temperature: 0.0, max_new_tokens: 512, ignore_eos: false, stop: ['Question', 'Assistant:'] },
  });
  assert.deepEqual(samplingBody(evalBackendAdapter('sglang-native'), { maxNewTokens: 1, stop: [] }), {
    sampling_params: { temperature: 0.0, max_new_tokens: 1, ignore_eos: false },
  });
});

test('OpenAI completions and chat get them at the top level, with the usage chunk asked for', () => {
  for (const backend of ['sglang-oai', 'vllm', 'openai', 'sglang-oai-chat', 'openai-chat'] as const) {
    assert.deepEqual(samplingBody(evalBackendAdapter(backend), settings), {
      temperature: 0.0,
      ignore_eos: false,
      stop: ['Question', 'Assistant:'],
      stream_options: { include_usage: true },
    });
  }
});

test('backends whose requests cannot carry the settings are refused with one usage line', () => {
  for (const backend of ['trt', 'truss', 'gserver'] as BackendName[]) {
    assert.throws(() => evalBackendAdapter(backend), (e: unknown) => e instanceof UsageError && e.message.includes(`--backend ${backend}`) && !e.message.includes('\n'));
  }
});
