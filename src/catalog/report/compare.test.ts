import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareMetrics, definitionDifferences, noiseChecks, requestTpotsMs, settingDifferences } from './compare.js';
import { formatComparison } from './run-views.js';
import { BENCH_SERVING_DEFINITIONS } from '../metric-definitions.js';
import type { RequestRecord, RunRecord } from '../types.js';

function run(id: string, metrics: RunRecord['metrics'], metricDefinitions: Record<string, string> = {}): RunRecord {
  return {
    id, recordedAt: '', startedAt: null, model: null, toolVersion: null, source: { kind: 'bench', file: null, contentHash: id },
    args: null, metrics, metricDefinitions, serverInfo: null, environment: {}, labels: {}, recipe: null, warnings: [], requestCount: 0, mode: 'measured',
  };
}

function requests(ttftsMs: number[], tpotMs: number): RequestRecord[] {
  return ttftsMs.map((t) => ({
    startTime: 0, ttft: t / 1000, latency: t / 1000 + (tpotMs * 9) / 1000, itl: [], promptLen: 10, outputLen: 10, success: true, error: '', cause: null,
  }));
}

test('relative change against the first run; strings and zero baselines have none', () => {
  const rows = compareMetrics([run('a', { backend: 'sglang', mean_ttft_ms: 100, x: 0 }), run('b', { backend: 'vllm', mean_ttft_ms: 110, x: 5, y: 1 })]);
  assert.deepEqual(rows.map((r) => r.key), ['backend', 'mean_ttft_ms', 'x', 'y']);
  assert.ok(Math.abs(rows[1]!.change[1]! - 0.1) < 1e-12);
  assert.deepEqual([rows[0]!.change[1], rows[2]!.change[1], rows[3]!.change[1]], [null, null, null]);
  assert.equal(rows[3]!.values[0], undefined);
});

test('noise: a shift larger than the spread is flagged, a jitter is not', () => {
  const base = requests([100, 104, 96, 102, 98, 101, 99, 100], 20);
  const shifted = requests([130, 134, 126, 132, 128, 131, 129, 130], 20.01);
  const checks = noiseChecks([base, shifted]);
  const ttft = checks.find((c) => c.metric === 'ttft_ms')!;
  assert.equal(ttft.beyondNoise, true);
  assert.ok(Math.abs(ttft.difference - 30) < 1e-9);
  const same = noiseChecks([base, requests([101, 99, 103, 97, 100, 102, 98, 100], 20)]);
  assert.equal(same.find((c) => c.metric === 'ttft_ms')!.beyondNoise, false);
  assert.equal(requestTpotsMs(base).length, 8);
  assert.ok(Math.abs(requestTpotsMs(base)[0]! - 20) < 1e-9);
});

test('metrics two runs define differently are marked, with the definition of each run on a note line', () => {
  const perRequest = '(latency - TTFT) / (output tokens - 1) of each request';
  const runs = [
    run('base', { mean_itl_ms: 20, p99_itl_ms: 90, mean_ttft_ms: 100 }),
    run('aiperf', { mean_itl_ms: 21, p99_itl_ms: 25, mean_ttft_ms: 101 }, { mean_itl_ms: perRequest, p99_itl_ms: perRequest }),
    run('other', { mean_ttft_ms: 99 }),
  ];
  const rows = compareMetrics(runs);
  assert.deepEqual(definitionDifferences(runs, rows), [
    { family: 'itl_ms', keys: ['mean_itl_ms', 'p99_itl_ms'], definitions: [BENCH_SERVING_DEFINITIONS.itl_ms, perRequest, null] },
  ]);
  const text = formatComparison(runs, rows, []);
  assert.match(text, /^mean_itl_ms \*/m);
  assert.match(text, /^mean_ttft_ms  /m, 'a metric defined alike is not marked');
  assert.ok(text.includes(`* itl_ms is defined differently: base: ${BENCH_SERVING_DEFINITIONS.itl_ms}; aiperf: ${perRequest}`));
});

test('settings that differ: bench arguments and launch facts per server, each run’s value or null', () => {
  const instance = (role: 'mixed' | 'prefill' | 'decode', config: Record<string, unknown>) => ({ role, launcher: 'sglang serve', config, flags: {} });
  const a = { ...run('a', {}), args: { model: 'm', max_concurrency: 16, request_rate: Infinity }, recipe: { instances: [instance('mixed', { tpSize: 8, enableDpAttention: true })], env: {}, origin: 'file' } };
  const b = { ...run('b', {}), args: { model: 'm', max_concurrency: 64, request_rate: Infinity, seed: 2 }, recipe: { instances: [instance('mixed', { tpSize: 8, dpSize: 8, enableDpAttention: true })], env: {}, origin: 'file' } };
  assert.deepEqual(settingDifferences([a, b]), {
    args: [{ key: 'max_concurrency', values: ['16', '64'] }, { key: 'seed', values: [null, '2'] }],
    launch: [{ key: 'mixed.dpSize', values: [null, '8'] }],
  });
  const text = formatComparison([a, b], compareMetrics([a, b]), []);
  assert.match(text, /arguments that differ:\nSETTING\s+a\s+b\n-+\s+-+\s+-+\nmax_concurrency\s+16\s+64\nseed\s+-\s+2/);
  assert.match(text, /launch configuration that differs:\nSETTING\s+a\s+b\n-+\s+-+\s+-+\nmixed\.dpSize\s+-\s+8/);
});

test('the device and weights a server reported compare beside the launch facts: a simulated run against its measured twin', () => {
  const measured = { ...run('m', {}), recipe: { instances: [{ role: 'mixed' as const, launcher: 'sglang 0.5.6', config: { tpSize: 8, device: 'cuda' }, flags: {} }], env: {}, origin: 'x' } };
  const h100 = { key: 'h100', name: 'NVIDIA H100', unit: 'GPU', devicesPerCard: 1 };
  const simulated = { ...run('s', {}), recipe: { instances: [{ role: 'mixed' as const, launcher: 'servebench-sim 0.1.0', config: { tpSize: 8, device: 'cuda' }, flags: {}, hardware: h100, weightFormat: 'bf16' }], env: {}, origin: 'x' } };
  assert.deepEqual(settingDifferences([measured, simulated]).launch, [{ key: 'mixed.hardware', values: [null, 'h100'] }, { key: 'mixed.weights', values: [null, 'bf16'] }]);
});
