import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatConfidenceLevel, meanInterval, sampleStd, welchInterval } from './confidence.js';

const close = (actual: number | null, expected: number, tolerance = 1e-9): void => {
  assert.ok(actual !== null && Math.abs(actual - expected) < tolerance, `${actual} ≠ ${expected}`);
};

describe('confidence of a mean', () => {
  test('three runs: mean, 95% half-width and CV as scipy computes them', () => {
    const interval = meanInterval([101.2, 99.8, 100.5], 0.95);
    assert.equal(interval.count, 3);
    close(interval.mean, 100.5);
    // scipy: t.ppf(0.975, 2) * std(ddof=1) / sqrt(3) = 1.7388963982, std / mean = 0.0069651741.
    close(interval.halfWidth, 1.7388963982, 1e-8);
    close(interval.cv, 0.0069651741, 1e-9);
  });
  test('a higher level widens the interval', () => {
    const values = [10, 11, 12, 13];
    assert.ok(meanInterval(values, 0.99).halfWidth! > meanInterval(values, 0.95).halfWidth!);
  });
  test('one value has no interval and no CV; a zero mean has no CV', () => {
    assert.deepEqual(meanInterval([4], 0.95), { count: 1, mean: 4, halfWidth: null, cv: null });
    assert.equal(meanInterval([-1, 1], 0.95).cv, null);
    assert.ok(Number.isNaN(sampleStd([1])));
  });
});

describe("Welch's interval", () => {
  test('matches scipy ttest_ind(equal_var=False).confidence_interval', () => {
    const a = [1, 2, 3, 4, 5];
    const b = [3, 4, 5, 6, 7.5];
    const at95 = welchInterval(a, b, 0.95)!;
    close(at95.df, 7.9221990034, 1e-8);
    close(at95.low, -0.3336854475, 1e-8);
    close(at95.high, 4.5336854475, 1e-8);
    assert.equal(at95.beyondNoise, false);
    const at90 = welchInterval(a, b, 0.9)!;
    close(at90.low, 0.1383473822, 1e-8);
    assert.equal(at90.beyondNoise, true, 'at 90% the same difference is beyond the noise');
  });
  test('fewer than two values on a side: no interval; no spread at all: any difference is beyond it', () => {
    assert.equal(welchInterval([1], [2, 3], 0.95), null);
    assert.equal(welchInterval([2, 2], [3, 3], 0.95)!.beyondNoise, true);
    assert.equal(welchInterval([2, 2], [2, 2], 0.95)!.beyondNoise, false);
  });
});

test('confidence levels print as percentages', () => {
  assert.deepEqual([0.95, 0.9, 0.995, 0.999].map(formatConfidenceLevel), ['95%', '90%', '99.5%', '99.9%']);
});
