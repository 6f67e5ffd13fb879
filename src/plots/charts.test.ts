import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestRecord, RunRecord } from '../catalog/index.js';
import { UserError } from '../core/errors.js';
import { comparisonChartOption, runChartAvailability, runChartOption, runSubject, throughputPoints } from './charts.js';

function runRecord(id: string, metrics: RunRecord['metrics'], labels: Record<string, string> = {}, model = 'org/Model-A'): RunRecord {
  return {
    id, recordedAt: '2026-11-20T10:00:00.000Z', startedAt: null, model, toolVersion: null,
    source: { kind: 'bench', file: null, contentHash: id }, args: null, metrics, serverInfo: null,
    environment: {}, labels, recipe: null, warnings: [], requestCount: 0, mode: 'measured',
  };
}

const record = (startTime: number | null, latency: number | null): RequestRecord => ({
  startTime, ttft: 0.1, latency, itl: [0.01, 0.02], promptLen: 8, outputLen: 3, success: true, error: '', cause: null,
});

describe('per-run charts', () => {
  test('say why a chart is unavailable', () => {
    assert.match(runChartAvailability('throughput', []) ?? '', /no per-request records/);
    // JSONL details carry TTFT and ITL but no start time or latency.
    const details = [record(null, null)];
    assert.match(runChartAvailability('concurrency', details) ?? '', /start time and latency/);
    assert.equal(runChartAvailability('ttft', details), null);
    assert.equal(runChartAvailability('itl', details), null);
    assert.equal(runChartAvailability('throughput', [record(0, 0.2)]), null);
  });

  test("server: the run's /metrics series, or why there are none", () => {
    const run = runRecord('bbbb11112222', {});
    assert.match(runChartAvailability('server', [record(0, 0.2)], run) ?? '', /no \/metrics readings were kept/);
    const serverMetrics = {
      dialect: 'vllm',
      series: { t: [0, 1, 2], running_requests: [0, 8, 2], queued_requests: [0, 3, null], kv_cache_usage: [0, 0.25, 0.1], generation_throughput: [null, 900, 1100] },
    };
    const option = runChartOption('server', { ...run, serverMetrics }, []);
    const series = option.series as Array<{ name: string; data: unknown[] }>;
    assert.deepEqual(series.map((s) => s.name), ['running requests', 'queued requests', 'KV cache usage (%)', 'generation tok/s']);
    assert.deepEqual(series[2]!.data, [[0, 0], [1, 25], [2, 10]]);
    assert.deepEqual(series[1]!.data[2], [2, null]);
    assert.match(String((option.title as { subtext: string }).subtext), /vllm \/metrics, 3 readings over 2\.00 s/);
    // Series of another length than t do not read: no chart rather than a wrong one.
    const broken = { ...serverMetrics, series: { ...serverMetrics.series, running_requests: [1] } };
    assert.throws(() => runChartOption('server', { ...run, serverMetrics: broken }, []), UserError);
  });

  test('an unavailable chart is a one-line user error', () => {
    const run = runRecord('aaaa11112222', {});
    assert.throws(() => runChartOption('throughput', run, []), (e: unknown) => e instanceof UserError && /run aaaa11112222/.test(e.message));
  });

  test('charts name the run and model in their subtitle', () => {
    const run = runRecord('aaaa11112222', {});
    const option = runChartOption('ttft', run, [record(0, 0.2), record(0.1, 0.3)]);
    assert.equal(runSubject(run), 'run aaaa11112222 · Model-A');
    assert.match(String((option.title as { subtext: string }).subtext), /^run aaaa11112222 · Model-A · n = 2/);
  });
});

describe('throughput vs. TPOT', () => {
  const runs = [
    runRecord('aaaa11112222', { mean_tpot_ms: 20, output_throughput: 1600 }, { cards: '8' }),
    runRecord('bbbb11112222', { mean_tpot_ms: 40, output_throughput: 3000 }, {}, 'org/Model-B'),
    runRecord('cccc11112222', { mean_tpot_ms: null, output_throughput: 10 }),
  ];

  test('places runs with both metrics, grouped by model', () => {
    const { points, skipped } = throughputPoints(runs, false);
    assert.deepEqual(points, [
      { label: 'aaaa11', group: 'Model-A', meanTpotMs: 20, throughput: 1600 },
      { label: 'bbbb11', group: 'Model-B', meanTpotMs: 40, throughput: 3000 },
    ]);
    assert.deepEqual(skipped, ['run cccc11112222 has no mean TPOT or output throughput']);
  });

  test('per card divides by the card count and skips runs without one', () => {
    const { points, skipped } = throughputPoints(runs, true);
    assert.deepEqual(points.map((p) => p.throughput), [200]);
    assert.equal(skipped.length, 2);
    assert.match(skipped[0]!, /bbbb11112222 has no card count/);
  });

  test('no placeable run is a user error', () => {
    assert.throws(() => comparisonChartOption([runs[2]!]), UserError);
  });
});
