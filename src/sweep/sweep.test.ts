import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestOutput } from '../bench/types.js';
import { parseLoadSeries } from './load-series.js';
import { parseSlo } from './slo.js';
import { peakPoint, runSeries, runSloSearch, type PointMeasurement } from './sweep.js';
import { formatSweepSummary, formatSweepTable } from './sweep-table.js';

/** A successful 100-token request with the given TTFT and TPOT (seconds). */
function requestWith(ttft: number, tpot: number): RequestOutput {
  return {
    generatedText: '', success: true, ttft, latency: ttft + tpot * 99, itl: Array.from({ length: 99 }, () => tpot),
    textChunks: [], promptLen: 100, error: '', outputLen: 100, startTime: 0, queueTime: 0, failureCause: null,
  };
}

/** A synthetic closed-loop server: TPOT 10 ms + 0.5 ms per concurrent request, throughput saturating at 64. */
function measureAt(load: number): Promise<PointMeasurement> {
  const tpot = 0.01 + 0.0005 * load;
  const ttft = 0.05 + 0.002 * load;
  const outputs = Array.from({ length: 8 }, () => requestWith(ttft, tpot));
  const throughput = 100 * Math.min(load, 64) / (ttft + tpot * 99);
  return Promise.resolve({
    metrics: { completed: 8, output_throughput: throughput, request_throughput: throughput / 100, mean_tpot_ms: tpot * 1000, mean_ttft_ms: ttft * 1000, p99_ttft_ms: ttft * 1000, p99_tpot_ms: tpot * 1000, mean_itl_ms: tpot * 1000 },
    outputs, durationSeconds: 8 / (throughput / 100), runId: null,
  });
}

describe('runSeries', () => {
  test('visits a fixed series in order and judges each point', async () => {
    const slo = parseSlo('tpot=20ms');
    const points = await runSeries(parseLoadSeries('1,10,20,40', 'concurrency'), measureAt, slo);
    assert.deepEqual(points.map((p) => [p.load, p.verdict?.met]), [[1, true], [10, true], [20, true], [40, false]]);
    assert.equal(points[0]?.goodput?.goodRequests, 8);
    assert.equal(points[3]?.goodput?.goodRequests, 0);
  });

  test('auto doubles until throughput stops growing', async () => {
    const points = await runSeries(parseLoadSeries('auto', 'concurrency'), measureAt, null);
    // Throughput grows to concurrency 64, then falls at 128 (TPOT grows while the batch is capped): stop there.
    assert.deepEqual(points.map((p) => p.load), [1, 2, 4, 8, 16, 32, 64, 128]);
    assert.equal(peakPoint(points)?.load, 64);
  });
});

describe('runSloSearch', () => {
  test('finds the same knee as an exhaustive sweep, in fewer runs', async () => {
    const slo = parseSlo('tpot=25ms,p99-ttft=100ms');
    const exhaustive = await runSeries(parseLoadSeries('1:64:+1', 'concurrency'), measureAt, slo);
    const best = Math.max(...exhaustive.filter((p) => p.verdict?.met).map((p) => p.load));
    const search = await runSloSearch(slo, measureAt, { kind: 'concurrency', start: 1, limit: 64, tolerance: 0 });
    assert.equal(search.knee?.load, best);
    assert.ok(search.runs <= 12, `${search.runs} runs`);
    assert.deepEqual(search.points.map((p) => p.load), [...search.points.map((p) => p.load)].sort((a, b) => a - b));

    const summary = formatSweepSummary({ points: search.points, kind: 'concurrency', cards: 8, slo, knee: search.knee, runs: search.runs });
    assert.match(summary[1] as string, new RegExp(`^SLO mean-tpot=25ms,p99-ttft=100ms: highest load meeting it is concurrency ${best} \\(searched in ${search.runs} runs\\)`));
    const table = formatSweepTable(search.points, 'concurrency', 8, true).split('\n');
    assert.equal(table.length, search.points.length + 1);
    assert.match(table[0] as string, /concurrency .*tok\/s\/card .*goodput req\/s +SLO$/);
  });

  test("a prediction's summary carries the expected error beside throughput and the mean TPOT / TTFT it judges; a measurement's none", async () => {
    const slo = parseSlo('tpot=25ms,p99-ttft=100ms');
    const search = await runSloSearch(slo, measureAt, { kind: 'concurrency', start: 1, limit: 64, tolerance: 0 });
    const input = { points: search.points, kind: 'concurrency' as const, cards: 8, slo, knee: search.knee, runs: search.runs };
    const expectedError = { meanTpot: 0.12, outputThroughput: 0.1, meanTtft: 0.25, cases: 41, groups: 14 };
    const predicted = formatSweepSummary({ ...input, expectedError }).map((line) => line.replace(/\d+\.\d\d/g, 'N'));
    assert.deepEqual(predicted, [
      `Peak output throughput: N tok/s (±10%) at concurrency ${peakPoint(search.points)?.load} (N tok/s per card over 8)`,
      `SLO mean-tpot=25ms,p99-ttft=100ms: highest load meeting it is concurrency ${search.knee?.load} (searched in ${search.runs} runs): ` +
        'goodput N req/s, N output tok/s (±10%), N tok/s per card',
      '  mean-tpot=25ms: observed N ms (±12%)',
      '  p99-ttft=100ms: observed N ms',
    ]);
    for (const measured of [formatSweepSummary(input), formatSweepSummary({ ...input, expectedError: null })]) {
      assert.equal(measured.length, predicted.length);
      assert.ok(!measured.join('\n').includes('±'), measured.join('\n'));
    }
  });

  test('says so when no load meets the SLO', async () => {
    const slo = parseSlo('tpot=1ms');
    const search = await runSloSearch(slo, measureAt, { kind: 'concurrency', start: 4, limit: 64, tolerance: 0 });
    assert.equal(search.knee, null);
    assert.match(formatSweepSummary({ points: search.points, kind: 'concurrency', cards: 1, slo, knee: search.knee, runs: search.runs })[1] as string, /no load tried meets it/);
  });
});

describe('the SLO answer beside the highest goodput', () => {
  /** Eight requests with the given per-request TPOTs (seconds), all with a 50 ms TTFT, over `durationSeconds`. */
  function pointWith(tpots: readonly number[], durationSeconds: number): PointMeasurement {
    const outputs = tpots.map((tpot) => requestWith(0.05, tpot));
    const meanTpotMs = (tpots.reduce((sum, t) => sum + t, 0) / tpots.length) * 1000;
    return {
      metrics: { completed: tpots.length, output_throughput: (100 * tpots.length) / durationSeconds, request_throughput: tpots.length / durationSeconds, mean_tpot_ms: meanTpotMs, mean_ttft_ms: 50, p99_ttft_ms: 50, p99_tpot_ms: Math.max(...tpots) * 1000, mean_itl_ms: meanTpotMs },
      outputs, durationSeconds, runId: null,
    };
  }

  /** The summary of a `tpot=20ms` sweep over concurrency 8 and 16, given each load's run. */
  async function summaryOf(at8: PointMeasurement, at16: PointMeasurement): Promise<ReturnType<typeof formatSweepSummary>> {
    const slo = parseSlo('tpot=20ms');
    const points = await runSeries(parseLoadSeries('8,16', 'concurrency'), (load) => Promise.resolve(load === 8 ? at8 : at16), slo);
    return formatSweepSummary({ points, kind: 'concurrency', cards: 1, slo });
  }

  const noteCases = [
    {
      name: 'when a load that misses the SLO has more goodput, the summary says so and why',
      // Concurrency 8: every request at 15 ms (met; 8 good in 4 s). Concurrency 16: six at 10 ms, two at 60 ms
      // (mean 22.5 ms, missed; 6 good in 2 s, so more good requests per second).
      at8: pointWith(Array(8).fill(0.015), 4),
      at16: pointWith([0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.06, 0.06], 2),
      answer: /^SLO mean-tpot=20ms: highest load meeting it is concurrency 8: goodput 2\.00 req\/s/,
      note:
        'Highest goodput: 3.00 req/s at concurrency 16, 75.0% of its requests each within every limit; ' +
        'not the answer because the run as a whole misses mean-tpot=20ms (observed 22.50 ms) (each target is judged on the statistic it names)',
    },
    {
      name: 'when a lower load that meets the SLO has more goodput, the summary gives that reason, not failures it did not have',
      // Concurrency 8: every request at 15 ms, 8 good in 2 s. Concurrency 16: six at 10 ms, two at 25 ms
      // (mean 13.75 ms, met; 6 good in 4 s).
      at8: pointWith(Array(8).fill(0.015), 2),
      at16: pointWith([0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.025, 0.025], 4),
      answer: /^SLO mean-tpot=20ms: highest load meeting it is concurrency 16: goodput 1\.50 req\/s/,
      note:
        'Highest goodput: 4.00 req/s at concurrency 8, 100.0% of its requests each within every limit; ' +
        'it meets the SLO too, at a lower load; the answer is the highest load that meets it',
    },
  ];
  for (const { name, at8, at16, answer, note } of noteCases) {
    test(name, async () => {
      const summary = await summaryOf(at8, at16);
      assert.match(summary[1] as string, answer);
      assert.equal(summary.at(-1), note);
    });
  }

  test('no note when the answer is also the load with the most goodput', async () => {
    const slo = parseSlo('tpot=25ms,p99-ttft=100ms');
    const points = await runSeries(parseLoadSeries('1,10,20,40', 'concurrency'), measureAt, slo);
    assert.ok(!formatSweepSummary({ points, kind: 'concurrency', cards: 1, slo }).some((line) => line.startsWith('Highest goodput')));
  });
});
