import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isGuidellmReport, readGuidellmReport } from './guidellm-report.js';

const dist = (mean: number, extra: Record<string, unknown> = {}) => ({ successful: { mean, median: mean, std_dev: 1, count: 10, total_sum: mean * 10, ...extra }, errored: { mean: 999 } });

const REPORT = {
  args: { model: 'Qwen/Qwen3-8B', data: 'prompt_tokens=256,output_tokens=128' },
  benchmarks: [
    {
      config: { strategy: { type_: 'concurrent', streams: 4 } },
      duration: 30,
      metrics: {
        request_totals: { successful: 40, errored: 1, incomplete: 0, total: 41 },
        request_latency: dist(2.9, { percentiles: { p001: 2.7, p50: 2.85, p999: 3.2 } }),
        inter_token_latency_ms: dist(21.9),
        time_per_output_token_ms: dist(22.6),
        output_tokens_per_second: dist(170.7),
        output_token_count: dist(128),
      },
    },
    { config: { strategy: { type_: 'poisson', rate: 2.5 } }, metrics: {} },
  ],
};

test('one run per benchmark, read from its successful requests, latencies in ms, percentiles renamed', () => {
  assert.equal(isGuidellmReport(REPORT), true);
  assert.equal(isGuidellmReport({ benchmarks: [] }), false);
  const [concurrent, poisson] = readGuidellmReport(REPORT, '/r/benchmarks.json');
  assert.deepEqual(concurrent!.metrics, {
    completed: 40, failed: 1, incomplete: 0, duration: 30, total_output_tokens: 1280, output_throughput: 170.7,
    mean_itl_ms: 21.9, median_itl_ms: 21.9, std_itl_ms: 1, mean_tpot_ms: 22.6, median_tpot_ms: 22.6, std_tpot_ms: 1,
    mean_e2e_latency_ms: 2900, median_e2e_latency_ms: 2900, std_e2e_latency_ms: 1000, 'p0.1_e2e_latency_ms': 2700, 'p99.9_e2e_latency_ms': 3200,
  });
  assert.deepEqual(Object.keys(concurrent!.metricDefinitions!).sort(), ['duration', 'mean_itl_ms', 'mean_tpot_ms', 'median_itl_ms', 'median_tpot_ms', 'output_throughput', 'std_itl_ms', 'std_tpot_ms']);
  assert.match(concurrent!.metricDefinitions!.mean_tpot_ms!, /first token included/);
  assert.deepEqual([concurrent!.args!.max_concurrency, concurrent!.args!.dataset_name, concurrent!.model], [4, 'prompt_tokens=256,output_tokens=128', 'Qwen/Qwen3-8B']);
  assert.equal(concurrent!.source.title, 'benchmarks.json benchmark 1 (concurrent 4)');
  assert.deepEqual([poisson!.args!.request_rate, poisson!.metrics, poisson!.warnings], [2.5, {}, ['no GuideLLM metric could be read']]);
  assert.notEqual(concurrent!.source.contentHash, poisson!.source.contentHash);
});
