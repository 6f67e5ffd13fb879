import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { findResultBlocks, metricLabel, parseResultBlock } from './parse-block.js';
import { formatResultBlock } from './block.js';
import { formatExtendedBlock } from './extras-block.js';
import type { BenchmarkMetrics } from '../metrics/types.js';
import { readReferenceLog } from '../../../test/helpers/reference-logs.js';


/** An old-layout block (2025): typo label, no peak/P90/P99 E2E lines, no trailing spaces. */
const OLD_BLOCK = `
============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    10.0
Max reqeuest concurrency:                not set
Successful requests:                     1000
Benchmark duration (s):                  619.25
Total input tokens:                      302118
Total generated tokens:                  195775
Total generated tokens (retokenized):    195785
Request throughput (req/s):              1.61
Input token throughput (tok/s):          487.88
Output token throughput (tok/s):         316.15
Total token throughput (tok/s):          804.03
Concurrency:                             492.06
----------------End-to-End Latency----------------
Mean E2E Latency (ms):                   304728.23
Median E2E Latency (ms):                 301562.07
---------------Time to First Token----------------
Mean TTFT (ms):                          260547.81
Median TTFT (ms):                        260016.46
P99 TTFT (ms):                           549781.55
==================================================
`;

describe('parseResultBlock', () => {
  test('reads the new layout with trailing spaces (qwen2.5 reference log)', () => {
    const { metrics, warnings } = parseResultBlock(readReferenceLog('qwen2.5-0.5b_cuda-graph_64-16_r0.log'));
    assert.deepEqual(warnings, []);
    assert.equal(metrics.backend, 'sglang');
    assert.equal(metrics.request_rate, Infinity);
    assert.equal(metrics.max_concurrency, null);
    assert.equal(metrics.completed, 200);
    assert.equal(metrics.duration, 0.59);
    assert.equal(metrics.total_output_tokens_retokenized, 1652);
    assert.equal(metrics.max_output_tokens_per_s, 1653);
    assert.equal(metrics.max_concurrent_requests, 200);
    assert.equal(metrics.p90_e2e_latency_ms, 553.42);
    assert.equal(metrics.mean_tpot_ms, 3.0);
    assert.equal(metrics.p95_itl_ms, 6.47);
    assert.equal(metrics.max_itl_ms, 17.57);
    assert.equal('accept_length' in metrics, false);
    assert.equal(Object.keys(metrics).length, 31);
  });

  test('reads the old layout: typo label, no peak lines, no P90/P99 E2E', () => {
    const { metrics, warnings } = parseResultBlock(OLD_BLOCK);
    assert.deepEqual(warnings, []);
    assert.equal(metrics.request_rate, 10);
    assert.equal(metrics.max_concurrency, null);
    assert.equal(metrics.median_e2e_latency_ms, 301562.07);
    assert.equal('p90_e2e_latency_ms' in metrics, false);
    assert.equal('max_output_tokens_per_s' in metrics, false);
  });

  test('hand-made typos within two edits are read and reported; digits must match', () => {
    const { metrics, warnings } = parseResultBlock(
      'Mean TTTF (ms):   12.5\nOuput token throughput (tok/s): 99.1\nP95 TTTF (ms): 4\nMean TPOT (ms): 3',
    );
    assert.equal(metrics.mean_ttft_ms, 12.5);
    assert.equal(metrics.output_throughput, 99.1);
    assert.equal('p95_ttft_ms' in metrics, false);
    assert.equal('p95_itl_ms' in metrics, false);
    assert.equal(metrics.mean_tpot_ms, 3);
    assert.ok(warnings.some((w) => w.includes("'Mean TTTF (ms)' read as 'Mean TTFT (ms)'")));
    assert.ok(warnings.some((w) => w.includes("unrecognised result line 'P95 TTTF (ms): 4'")));
  });

  test('duplicates keep the first value; contradictions and bad values are warnings', () => {
    const { metrics, warnings } = parseResultBlock(
      '== Serving Benchmark Result ==\nMean TTFT (ms): 10\nMean TTFT (ms): 10\nMean TPOT (ms): 5\nMean TPOT (ms): 6\nConcurrency: n/a\n' + '='.repeat(50),
    );
    assert.equal(metrics.mean_ttft_ms, 10);
    assert.equal(metrics.mean_tpot_ms, 5);
    assert.equal('concurrency' in metrics, false);
    assert.deepEqual(warnings, [
      'Mean TPOT (ms) stated twice (5 and 6); kept the first',
      "Concurrency: unreadable value 'n/a'",
    ]);
  });

  test('a truncated block keeps what it has and says so', () => {
    const { metrics, warnings } = parseResultBlock(OLD_BLOCK.split('\n').slice(0, 10).join('\n'));
    assert.equal(metrics.total_generated_tokens, undefined);
    assert.equal(metrics.total_output_tokens, 195775);
    assert.deepEqual(warnings, ['result block has no closing ===== line (truncated?)']);
  });

  test("vLLM's layout: bare title between rules, any percentile, E2EL, failed requests", () => {
    const { metrics, warnings } = parseResultBlock(
      ['='.repeat(50), '            Serving Benchmark Result', '='.repeat(50), 'Successful requests:  100', 'Failed requests:  0',
        'Maximum request concurrency:  4', 'Request rate configured (RPS):  8.00', 'Total Token throughput (tok/s):  51.45',
        'P50 TTFT (ms):  1329.83', 'P99.9 ITL (ms):  33.1', 'Mean E2EL (ms):  83660.28', 'P95 E2EL (ms):  158566.60', '='.repeat(50)].join('\n'),
    );
    assert.deepEqual(warnings, []);
    assert.deepEqual(metrics, {
      completed: 100, failed: 0, max_concurrency: 4, request_rate: 8, total_throughput: 51.45, p50_ttft_ms: 1329.83,
      'p99.9_itl_ms': 33.1, mean_e2e_latency_ms: 83660.28, p95_e2e_latency_ms: 158566.6,
    });
  });

  test('trace rate and text without a block', () => {
    assert.equal(parseResultBlock('Traffic request rate: trace\n').metrics.request_rate, 'trace');
    assert.deepEqual(parseResultBlock('nothing here').warnings, ['no result block found']);
  });
});

describe('findResultBlocks', () => {
  test('finds the five blocks of the cookbook with their line ranges', () => {
    const text = readReferenceLog('deepseek-v3.2_nvidia_cookbook-results.log');
    const blocks = findResultBlocks(text);
    assert.equal(blocks.length, 5);
    assert.deepEqual(blocks.map((b) => b.metrics.mean_tpot_ms), [9.09, 106.16, 10.99, 49.18, 36.31]);
    assert.deepEqual(blocks.map((b) => b.metrics.accept_length), [2.46, undefined, 3.27, 3.26, 3.26]);
    assert.ok(blocks.every((b) => b.warnings.length === 0));
    const lines = text.split('\n');
    assert.match(lines[blocks[0]!.startLine]!, /Serving Benchmark Result/);
    assert.ok(blocks.every((b, i) => i === 0 || b.startLine >= blocks[i - 1]!.endLine));
  });
});

describe('round trip with the formatter', () => {
  test('every printed line parses back to its JSONL key and 2-decimal value', () => {
    const m: BenchmarkMetrics = {
      durationS: 12.3456, completed: 64, totalInput: 4096, totalInputText: 4000, totalInputVision: 96, totalOutput: 1024,
      totalOutputRetokenized: 1020, requestThroughput: 5.184, inputThroughput: 331.78, outputThroughput: 82.94,
      outputThroughputRetokenized: 82.6, totalThroughput: 414.72, totalThroughputRetokenized: 414.4, meanTtftMs: 101.125,
      medianTtftMs: 99.5, stdTtftMs: 3, p99TtftMs: 140.333, meanTpotMs: 9.87654, medianTpotMs: 9.5, stdTpotMs: 1, p99TpotMs: 15.01,
      meanItlMs: 9.9, medianItlMs: 9.1, stdItlMs: 2, p95ItlMs: 14.2, p99ItlMs: 18.75, maxItlMs: 40.004, meanE2eLatencyMs: 1500.5,
      medianE2eLatencyMs: 1490.25, stdE2eLatencyMs: 10, p90E2eLatencyMs: 1600.8, p99E2eLatencyMs: 1700.9, concurrency: 7.77,
      acceptLength: 2.46, maxOutputTokensPerS: 150, maxConcurrentRequests: 8,
    };
    const text = formatResultBlock(m, { backend: 'sglang-oai', load: { requestRate: 16, useTraceTimestamps: false, maxConcurrency: 8 }, dataset: { name: 'image' } });
    const { metrics, warnings } = parseResultBlock(text);
    assert.deepEqual(warnings, []);
    const r2 = (x: number): number => Number(x.toFixed(2));
    assert.deepEqual(metrics, {
      backend: 'sglang-oai', request_rate: 16, max_concurrency: 8, completed: 64, duration: r2(m.durationS),
      total_input_tokens: 4096, total_input_text_tokens: 4000, total_input_vision_tokens: 96, total_output_tokens: 1024,
      total_output_tokens_retokenized: 1020, request_throughput: r2(m.requestThroughput), input_throughput: m.inputThroughput,
      output_throughput: m.outputThroughput, max_output_tokens_per_s: 150, max_concurrent_requests: 8, total_throughput: m.totalThroughput,
      concurrency: m.concurrency, accept_length: m.acceptLength, mean_e2e_latency_ms: m.meanE2eLatencyMs,
      median_e2e_latency_ms: m.medianE2eLatencyMs, p90_e2e_latency_ms: m.p90E2eLatencyMs, p99_e2e_latency_ms: m.p99E2eLatencyMs,
      mean_ttft_ms: 101.12, median_ttft_ms: m.medianTtftMs, p99_ttft_ms: r2(m.p99TtftMs), mean_tpot_ms: r2(m.meanTpotMs),
      median_tpot_ms: m.medianTpotMs, p99_tpot_ms: m.p99TpotMs, mean_itl_ms: m.meanItlMs, median_itl_ms: m.medianItlMs,
      p95_itl_ms: m.p95ItlMs, p99_itl_ms: m.p99ItlMs, max_itl_ms: r2(m.maxItlMs),
    });
  });

  test("servebench's extras section after the block is read too", () => {
    const extras = formatExtendedBlock({
      failed: 3,
      failuresByCause: { timeout: 2, http_5xx: 1 },
      resentRequests: 4,
      queueTime: { meanMs: 1.5, p99Ms: 9.25 },
      requestedRate: Infinity,
      achievedRate: null,
      peakInFlight: 12,
      peakOutputTokensPerS: 840,
      reasoningTtft: null,
    });
    const blocks = findResultBlocks(`${OLD_BLOCK.trimEnd()}\n${extras}after\n`);
    assert.equal(blocks.length, 1);
    assert.deepEqual(blocks[0]!.warnings, []);
    const m = blocks[0]!.metrics;
    assert.deepEqual([m.failed, m.failed_timeout, m.failed_http_5xx, m.resent_requests, m.mean_queue_time_ms, m.p99_queue_time_ms, m.requested_request_rate], [3, 2, 1, 4, 1.5, 9.25, Infinity]);
    assert.deepEqual([m.peak_in_flight_requests, m.peak_output_tokens_per_s_1s_window], [12, 840]);
  });
});

test('metric keys read as the result block and the extras print them, others in words', () => {
  assert.equal(metricLabel('mean_ttft_ms'), 'Mean TTFT (ms)');
  assert.equal(metricLabel('output_throughput'), 'Output token throughput (tok/s)');
  assert.equal(metricLabel('peak_in_flight_requests'), 'Peak in-flight requests');
  assert.equal(metricLabel('failed'), 'Failed requests');
  assert.equal(metricLabel('failed_http_5xx'), 'Failed: http 5xx');
  assert.equal(metricLabel('timing_error_bound_ms'), 'Timing error bound (ms)');
});
