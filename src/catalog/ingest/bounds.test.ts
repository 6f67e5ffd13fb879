import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestRecord } from '../types.js';
import { boundMetrics, boundRequests } from './bounds.js';

test('metrics within physical bounds pass unchanged, with no warning', () => {
  const metrics = {
    backend: 'sglang', request_rate: Infinity, achieved_request_rate: Infinity, max_concurrency: null, completed: 40, failed: 0, duration: 2.5,
    total_input_tokens: 2560, request_throughput: 16, output_throughput: 120.5, max_output_tokens_per_s: 240,
    concurrency: 7.5, accept_length: 2.46, mean_ttft_ms: 99.9, p99_tpot_ms: 0, count_reasoning_ttft_ms: 3,
    mean_tpot_prediction_error: -0.04,
  };
  assert.deepEqual(boundMetrics(metrics), { metrics, warning: null });
});

test('absurd values are stored as null and named with their value in one warning', () => {
  const { metrics, warning } = boundMetrics({
    completed: 1e308, mean_tpot_ms: -Infinity, median_tpot_ms: -3, p99_tpot_ms: NaN, concurrency: 1e23,
    output_throughput: -1, duration: 1e12, total_output_tokens: 2.5, request_rate: -1, mean_ttft_ms: 20,
    mystery_ratio: Infinity,
  });
  assert.deepEqual(metrics, {
    completed: null, mean_tpot_ms: null, median_tpot_ms: null, p99_tpot_ms: null, concurrency: null,
    output_throughput: null, duration: null, total_output_tokens: null, request_rate: null, mean_ttft_ms: 20,
    mystery_ratio: null,
  });
  assert.equal(
    warning,
    'values outside physical bounds stored as not measured: completed 1e+308 (must be a whole number from 0 to 1e15); ' +
      'mean_tpot_ms -inf (must be a time from 0 to a year); median_tpot_ms -3 (must be a time from 0 to a year); ' +
      'p99_tpot_ms NaN (must be a time from 0 to a year); concurrency 1e+23 (must be from 0 to 1e15); ' +
      'output_throughput -1 (must be from 0 to 1e15); duration 1000000000000 (must be a time from 0 to a year); ' +
      'total_output_tokens 2.5 (must be a whole number from 0 to 1e15); request_rate -1 (must be not negative (inf allowed)); ' +
      'mystery_ratio inf (must be a finite number)',
  );
});

const request = (fields: Partial<RequestRecord>): RequestRecord => ({
  startTime: 0, ttft: 0.1, latency: 0.5, itl: [0.01, 0.01], promptLen: 64, outputLen: 3, success: true, error: '', cause: null, ...fields,
});

test('per-request values outside bounds are nulled (bad ITL gaps dropped) and counted in one warning', () => {
  const good = request({});
  const { requests, warning } = boundRequests([good, request({ ttft: -1, itl: [0.01, NaN, Infinity], outputLen: 1e300 })]);
  assert.deepEqual(requests, [good, request({ ttft: null, itl: [0.01], outputLen: null })]);
  assert.equal(warning, '4 per-request values outside physical bounds stored as not measured (first: ttfts[1] -1)');
  assert.deepEqual(boundRequests([good]), { requests: [good], warning: null });
});
