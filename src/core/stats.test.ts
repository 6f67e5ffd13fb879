import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { max, mean, median, orZero, percentile, std, sum } from './stats.js';

describe('numpy-equal statistics', () => {
  test('mean, std (ddof 0), max', () => {
    assert.equal(mean([1, 2, 3, 4]), 2.5);
    assert.equal(std([1, 2, 3, 4]), Math.sqrt(1.25));
    assert.equal(std([5]), 0);
    assert.equal(max([3, 9, 1]), 9);
  });
  test('median: middle value, or mean of the two middle values', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
  });
  test('sum is pairwise: 8 accumulators from 8 elements on', () => {
    const values = [1e16, 1, 1, 1, 1, 1, 1, 1, 1];
    // Left to right, every +1 is lost to rounding; numpy's blocked sum keeps 1e16 + 8.
    assert.equal(values.reduce((a, b) => a + b), 1e16);
    assert.equal(sum(values), 1.0000000000000008e16);
    // Below 8 elements numpy adds left to right.
    assert.equal(sum([1e16, 1, 1, 1, 1, 1, 1]), 1e16);
  });
  test('percentile interpolates linearly on (n-1)·p/100', () => {
    assert.equal(percentile([1, 2, 3, 4], 50), 2.5);
    assert.equal(percentile([40, 10, 30, 20], 0), 10);
    assert.equal(percentile([40, 10, 30, 20], 100), 40);
    // h = 3·0.25 = 0.75: 10 + (20 − 10)·0.75, computed as 20 − 10·0.25.
    assert.equal(percentile([10, 20, 30, 40], 25), 17.5);
    assert.equal(percentile([5], 99), 5);
  });
  test('percentile uses b − (b−a)(1−t) when t ≥ 0.5 (value from numpy 2.4)', () => {
    const values = [0.021, 0.186, 0.556, 0.642, 0.838, 0.86, 0.993];
    // a + (b−a)·t would give 0.9530999999999998.
    assert.equal(percentile(values, 95), 0.9531);
  });
  test('orZero mirrors `xs or 0`', () => {
    assert.deepEqual(orZero([]), [0]);
    assert.deepEqual(orZero([2]), [2]);
    assert.equal(percentile(orZero([]), 99), 0);
  });
});
