import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile } from '../../core/stats.js';
import { LatenessHistogram } from './lateness-histogram.js';

function histogramOf(values: readonly number[]): LatenessHistogram {
  const histogram = new LatenessHistogram();
  for (const value of values) histogram.add(value);
  return histogram;
}

test('p50 and p99 agree with the exact percentiles within 0.2 %, the maximum exactly', () => {
  let seed = 12345;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  // Mostly sub-millisecond, with a long tail, as a sim's writes are.
  const values = Array.from({ length: 50_000 }, () => (random() < 0.97 ? random() * 0.3 : 1 + random() * 40));
  const summary = histogramOf(values).summary();
  assert.equal(summary.chunks, values.length);
  assert.equal(summary.maxMs, Math.max(...values));
  for (const [p, approx] of [[50, summary.p50Ms], [99, summary.p99Ms]] as const) {
    const exact = percentile(values, p);
    assert.ok(Math.abs(approx - exact) <= exact * 0.002 + 1e-6, `p${p}: ${approx} against ${exact}`);
  }
});

test('few values: interpolated as numpy does', () => {
  const summary = histogramOf([0.1, 0.2, 0.1, 0.3, 0.05]).summary();
  assert.ok(Math.abs(summary.p99Ms - 0.296) < 0.001, String(summary.p99Ms));
  assert.ok(Math.abs(summary.p50Ms - 0.1) < 0.0002, String(summary.p50Ms));
});

test('negative lateness (a write a hair early) counts as on time; clear() forgets everything', () => {
  const histogram = histogramOf([-0.01, -0.02]);
  assert.equal(histogram.summary().p99Ms <= 0.000001, true);
  histogram.clear();
  assert.deepEqual(histogram.summary(), { chunks: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 });
});
