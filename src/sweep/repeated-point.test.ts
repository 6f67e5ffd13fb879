import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestOutput } from '../bench/index.js';
import { intervalsOf, repeatedPoint } from './repeated-point.js';

const output = (success: boolean): RequestOutput => ({ success } as RequestOutput);

test("a point's runs: numeric figures averaged, text kept from the first, requests pooled, intervals of the headline figures", () => {
  const point = repeatedPoint(
    [
      { metrics: { backend: 'sglang', output_throughput: 100, mean_tpot_ms: 10, completed: 4 }, outputs: [output(true), output(true)], durationSeconds: 2 },
      { metrics: { backend: 'sglang', output_throughput: 110, mean_tpot_ms: 12, completed: 3 }, outputs: [output(true), output(false)], durationSeconds: 3 },
    ],
    0.95,
  );
  assert.deepEqual(point.metrics, { backend: 'sglang', output_throughput: 105, mean_tpot_ms: 11, completed: 3.5 });
  assert.equal(point.outputs.length, 4);
  assert.equal(point.durationSeconds, 5);
  const intervals = intervalsOf(point.summary);
  // t(0.975, 1) = 12.706; sd of {10, 12} = √2; half-width = 12.706 · √2 / √2.
  assert.ok(Math.abs(intervals.mean_tpot_ms! - 12.7062) < 1e-4);
  assert.deepEqual(Object.keys(intervals), ['output_throughput', 'mean_tpot_ms']);
});
