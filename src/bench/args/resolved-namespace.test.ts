import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveRunConfig } from '../run-config.js';
import type { BenchTarget } from '../target.js';
import { formatNamespace } from './namespace.js';
import { parseBenchArgs } from './parse.js';
import { resolvedNamespace } from './resolved-namespace.js';

const target: BenchTarget = {
  baseUrl: null,
  host: '127.0.0.1',
  port: 41000,
  urls: { apiUrl: 'http://127.0.0.1:41000/generate', modelUrl: 'http://127.0.0.1:41000/v1/models', baseUrl: 'http://127.0.0.1:41000' },
  model: 'Qwen/Qwen2.5-0.5B-Instruct',
  modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
};

describe('resolvedNamespace', () => {
  test('shows what start-up settled: the forced chat template, the port, the discovered model, a sim address', () => {
    const args = parseBenchArgs(['--base-url', 'http://x:1', '--dataset-name', 'image']);
    const shown = resolvedNamespace(resolveRunConfig(args), target);
    assert.deepEqual([shown.base_url, shown.host, shown.port, shown.model, shown.apply_chat_template], [null, '127.0.0.1', 41000, target.model, true]);
    assert.deepEqual([args.base_url, args.port, args.model, args.apply_chat_template], ['http://x:1', null, null, false], 'the parsed namespace is unchanged');
  });
  test('keeps the field order of the printed repr and the stored arguments', () => {
    const args = parseBenchArgs(['--max-concurrency', '4']);
    const shown = resolvedNamespace(resolveRunConfig(args), target);
    assert.deepEqual(Object.keys(shown), Object.keys(args));
    assert.equal(formatNamespace(shown), formatNamespace({ ...args, host: target.host, port: 41000, model: target.model }));
  });
  test('without a target (a prediction) the address stays as given; a point config shows its load', () => {
    const args = parseBenchArgs(['--num-prompts', '10']);
    const config = resolveRunConfig(args, { defaultModel: 'org/m' });
    const point = { ...config, load: { ...config.load, maxConcurrency: 8 }, dataset: { ...config.dataset, numPrompts: 32 } };
    const shown = resolvedNamespace(point);
    assert.deepEqual([shown.port, shown.model, shown.max_concurrency, shown.num_prompts], [null, 'org/m', 8, 32]);
  });
});
