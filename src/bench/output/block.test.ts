import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BenchmarkMetrics, ServebenchExtras } from '../metrics/types.js';
import { formatResultBlock, numberLine, requestRateLabel, textLine, type BlockSettings } from './block.js';
import { formatExtendedBlock } from './extras-block.js';
import { readReferenceLog } from '../../../test/helpers/reference-logs.js';

/** The lines of a log from the blank line before the result header through the closing rule. */
function loggedBlock(file: string, occurrence = 0): string {
  const lines = readReferenceLog(file).split('\n');
  const starts = lines.flatMap((line, i) => (line.startsWith('============ Serving Benchmark Result') ? [i] : []));
  const start = starts[occurrence] as number;
  const end = lines.indexOf('='.repeat(50), start);
  return ['', ...lines.slice(start, end + 1)].join('\n') + '\n';
}

/** Metrics carrying the (rounded) values a log printed; unprinted fields are 0. */
function metrics(values: Partial<BenchmarkMetrics>): BenchmarkMetrics {
  const zero = {
    durationS: 0, completed: 0, totalInput: 0, totalInputText: 0, totalInputVision: 0, totalOutput: 0,
    totalOutputRetokenized: 0, requestThroughput: 0, inputThroughput: 0, outputThroughput: 0,
    outputThroughputRetokenized: 0, totalThroughput: 0, totalThroughputRetokenized: 0, meanTtftMs: 0,
    medianTtftMs: 0, stdTtftMs: 0, p99TtftMs: 0, meanTpotMs: 0, medianTpotMs: 0, stdTpotMs: 0, p99TpotMs: 0,
    meanItlMs: 0, medianItlMs: 0, stdItlMs: 0, p95ItlMs: 0, p99ItlMs: 0, maxItlMs: 0, meanE2eLatencyMs: 0,
    medianE2eLatencyMs: 0, stdE2eLatencyMs: 0, p90E2eLatencyMs: 0, p99E2eLatencyMs: 0, concurrency: 0,
    acceptLength: null, maxOutputTokensPerS: 0, maxConcurrentRequests: 0,
  };
  return { ...zero, ...values };
}

const randomRun: BlockSettings = { backend: 'sglang', load: { requestRate: Infinity, useTraceTimestamps: false, maxConcurrency: null }, dataset: { name: 'random' } };
const run = (maxConcurrency: number | null, dataset: BlockSettings['dataset']['name']): BlockSettings => ({ ...randomRun, load: { ...randomRun.load, maxConcurrency }, dataset: { name: dataset } });

describe('formatResultBlock', () => {
  test('reproduces the Qwen2.5 log block byte for byte', () => {
    const qwen = metrics({
      completed: 200, durationS: 0.59, totalInput: 5661, totalInputText: 5661, totalOutput: 1653,
      totalOutputRetokenized: 1652, requestThroughput: 336.53, inputThroughput: 9525.46, outputThroughput: 2781.41,
      maxOutputTokensPerS: 1653, maxConcurrentRequests: 200, totalThroughput: 12306.87, concurrency: 176.48,
      meanE2eLatencyMs: 524.41, medianE2eLatencyMs: 522.8, p90E2eLatencyMs: 553.42, p99E2eLatencyMs: 564.21,
      meanTtftMs: 503.94, medianTtftMs: 502.47, p99TtftMs: 537.43, meanTpotMs: 3, medianTpotMs: 3.04, p99TpotMs: 6.16,
      meanItlMs: 2.82, medianItlMs: 2.43, p95ItlMs: 6.47, p99ItlMs: 8.79, maxItlMs: 17.57,
    });
    assert.equal(formatResultBlock(qwen, randomRun), loggedBlock('qwen2.5-0.5b_cuda-graph_64-16_r0.log'));
  });

  test("places the vision-tokens line as the 480B log does (its era lacked the P90/P99 E2E lines)", () => {
    const coder = metrics({
      completed: 320, durationS: 322.16, totalInput: 1120000, totalInputText: 1120000, totalOutput: 480000,
      totalOutputRetokenized: 478667, requestThroughput: 0.99, inputThroughput: 3476.5, outputThroughput: 1489.93,
      maxOutputTokensPerS: 1840, maxConcurrentRequests: 160, totalThroughput: 4966.43, concurrency: 79.97,
      meanE2eLatencyMs: 80507.59, medianE2eLatencyMs: 80407.05, meanTtftMs: 6412.33, medianTtftMs: 6247.77,
      p99TtftMs: 10224.53, meanTpotMs: 49.43, medianTpotMs: 49.31, p99TpotMs: 52.95, meanItlMs: 49.43,
      medianItlMs: 46.89, p95ItlMs: 52.56, p99ItlMs: 56.78, maxItlMs: 8901.2,
    });
    const block = formatResultBlock(coder, run(80, 'image'))
      .split('\n').filter((line) => !/^P(90|99) E2E/.test(line)).join('\n');
    assert.equal(block, loggedBlock('qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log'));
  });

  test('places the accept length as the DeepSeek cookbook log does (trailing spaces stripped there)', () => {
    const deepseek = metrics({
      completed: 10, durationS: 29.11, totalInput: 1972, totalInputText: 1972, totalOutput: 2784,
      totalOutputRetokenized: 2777, requestThroughput: 0.34, inputThroughput: 67.73, outputThroughput: 95.62,
      maxOutputTokensPerS: 157, maxConcurrentRequests: 3, totalThroughput: 163.36, concurrency: 1, acceptLength: 2.46,
      meanE2eLatencyMs: 2909.74, medianE2eLatencyMs: 3088.27, p90E2eLatencyMs: 4200.62, p99E2eLatencyMs: 5588.52,
      meanTtftMs: 317.58, medianTtftMs: 191.31, p99TtftMs: 740.79, meanTpotMs: 9.09, medianTpotMs: 9.25,
      p99TpotMs: 11.73, meanItlMs: 9.35, medianItlMs: 7.64, p95ItlMs: 22.81, p99ItlMs: 23.33, maxItlMs: 31.45,
    });
    const block = formatResultBlock(deepseek, run(1, 'mmmu'));
    const trimmed = block.split('\n').map((line) => line.trimEnd()).join('\n');
    assert.equal(trimmed, loggedBlock('deepseek-v3.2_nvidia_cookbook-results.log'));
  });

  test('conditional lines: vision tokens only for image/mmmu, accept length only when non-zero', () => {
    const base = metrics({ totalInputVision: 7 });
    assert.ok(!formatResultBlock(base, randomRun).includes('vision'));
    assert.ok(formatResultBlock(base, run(null, 'image')).includes('Total input vision tokens:               7         \n'));
    assert.ok(!formatResultBlock(metrics({ acceptLength: 0 }), randomRun).includes('Accept length'));
    assert.ok(formatResultBlock(metrics({ acceptLength: 3.125 }), randomRun).includes('Accept length:                           3.12      \n'));
    assert.ok(formatResultBlock(metrics({ acceptLength: NaN }), randomRun).includes('Accept length:                           nan       \n'));
  });

  test('rate label, concurrency label and Python rounding', () => {
    assert.equal(requestRateLabel({ requestRate: 16, useTraceTimestamps: false }), '16.0');
    assert.equal(requestRateLabel({ requestRate: 0.5, useTraceTimestamps: false }), '0.5');
    assert.equal(requestRateLabel({ requestRate: 1e-5, useTraceTimestamps: false }), '1e-05');
    assert.equal(requestRateLabel({ requestRate: 4, useTraceTimestamps: true }), 'trace');
    const block = formatResultBlock(metrics({ durationS: 0.125 }), run(0, 'random'));
    assert.ok(block.includes('Max request concurrency:                 not set   \n'));
    assert.ok(block.includes('Benchmark duration (s):                  0.12      \n'));
  });

  test('line helpers pad to 40 + 1 + 10 and never truncate', () => {
    assert.equal(textLine('Backend:', 'sglang'), 'Backend:' + ' '.repeat(33) + 'sglang    ');
    assert.equal(numberLine('X:', 123456789.125), 'X:' + ' '.repeat(39) + '123456789.12');
    assert.equal(numberLine('X:', Infinity), 'X:' + ' '.repeat(39) + 'inf       ');
  });
});

describe('formatExtendedBlock', () => {
  const extras: ServebenchExtras = {
    failed: 3, failuresByCause: { http_429: 1, timeout: 2 }, resentRequests: 2, queueTime: { meanMs: 12.5, p99Ms: 40.125 },
    requestedRate: 16, achievedRate: 15.875, peakInFlight: 64, peakOutputTokensPerS: 2510, reasoningTtft: { count: 2, meanMs: 100, medianMs: 100, p99Ms: 150 },
  };
  test('every section when present', () => {
    assert.equal(formatExtendedBlock(extras), [
      '----------------servebench extras-----------------',
      'Failed requests:                         3         ',
      '  http_429:                              1         ',
      '  timeout:                               2         ',
      'Resent requests (keep-alive closed):     2         ',
      'Mean queue time (ms):                    12.50     ',
      'P99 queue time (ms):                     40.12     ',
      'Requested request rate (req/s):          16.0      ',
      'Achieved request rate (req/s):           15.88     ',
      'Peak in-flight requests:                 64        ',
      'Peak output tok/s (1 s window):          2510.00   ',
      'Mean reasoning TTFT (ms):                100.00    ',
      'Median reasoning TTFT (ms):              100.00    ',
      'P99 reasoning TTFT (ms):                 150.00    ',
      '='.repeat(50),
      '',
    ].join('\n'));
  });
  test('optional sections are left out', () => {
    const text = formatExtendedBlock({ ...extras, failed: 0, failuresByCause: {}, resentRequests: 0, queueTime: null, achievedRate: null, reasoningTtft: null, requestedRate: Infinity });
    assert.equal(text, [
      '----------------servebench extras-----------------',
      'Failed requests:                         0         ',
      'Requested request rate (req/s):          inf       ',
      'Peak in-flight requests:                 64        ',
      'Peak output tok/s (1 s window):          2510.00   ',
      '='.repeat(50),
      '',
    ].join('\n'));
  });
});
