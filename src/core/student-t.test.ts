import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { logGamma, regularizedIncompleteBeta, studentTCdf, studentTQuantile } from './student-t.js';

/**
 * Upper critical values of Student's t as printed in the standard tables (one-sided tail 0.10,
 * 0.05, 0.025, 0.005; two-sided 80%, 90%, 95%, 99%), to 4 decimals; 7.5 degrees of freedom (a
 * Welch-style fraction) from scipy.stats.t.ppf.
 */
const REFERENCE_TABLE: ReadonlyArray<[df: number, p90: number, p95: number, p975: number, p995: number]> = [
  [1, 3.0777, 6.3138, 12.7062, 63.6567],
  [2, 1.8856, 2.92, 4.3027, 9.9248],
  [3, 1.6377, 2.3534, 3.1824, 5.8409],
  [4, 1.5332, 2.1318, 2.7764, 4.6041],
  [5, 1.4759, 2.015, 2.5706, 4.0321],
  [7.5, 1.4052, 1.8757, 2.333, 3.4214],
  [10, 1.3722, 1.8125, 2.2281, 3.1693],
  [20, 1.3253, 1.7247, 2.086, 2.8453],
  [30, 1.3104, 1.6973, 2.0423, 2.75],
  [60, 1.2958, 1.6706, 2.0003, 2.6603],
  [120, 1.2886, 1.6577, 1.9799, 2.6174],
  [1000, 1.2824, 1.6464, 1.9623, 2.5808],
];

/** Rounded to 4 decimals, as the table prints. */
const table4 = (value: number): number => Math.round(value * 1e4) / 1e4;

describe("Student's t", () => {
  test('quantiles match the reference table to 4 decimals', () => {
    for (const [df, ...values] of REFERENCE_TABLE) {
      [0.9, 0.95, 0.975, 0.995].forEach((p, i) => assert.equal(table4(studentTQuantile(p, df)), values[i], `t(${p}, ${df})`));
    }
  });
  test('infinitely many degrees of freedom give the normal quantiles', () => {
    assert.equal(table4(studentTQuantile(0.975, Infinity)), 1.96);
    assert.equal(table4(studentTQuantile(0.995, 1e12)), 2.5758);
  });
  test('the lower half mirrors the upper; the median is 0; the CDF inverts the quantile', () => {
    assert.equal(studentTQuantile(0.025, 10), -studentTQuantile(0.975, 10));
    assert.equal(studentTQuantile(0.5, 3), 0);
    for (const [p, df] of [[0.975, 2.5], [0.999, 40], [1e-10, 4]] as const) {
      assert.ok(Math.abs(studentTCdf(studentTQuantile(p, df), df) - p) < 1e-12 * Math.max(1, 1 / p), `cdf(quantile(${p}, ${df}))`);
    }
    // Far tail (scipy: t.ppf(1e-10, 4) = -416.17514...).
    assert.ok(Math.abs(studentTQuantile(1e-10, 4) + 416.17514) < 1e-4);
  });
  test('out-of-range arguments are errors, not NaN', () => {
    assert.throws(() => studentTQuantile(1, 5), RangeError);
    assert.throws(() => studentTQuantile(0.5, 0), RangeError);
  });
  test('log-gamma and the incomplete beta at known points', () => {
    assert.ok(Math.abs(logGamma(0.5) - Math.log(Math.sqrt(Math.PI))) < 1e-14);
    assert.ok(Math.abs(logGamma(10) - Math.log(362880)) < 1e-12);
    // I_x(1, 1) = x; I_x(a, 1) = x^a; I_0.5(a, a) = 0.5.
    assert.ok(Math.abs(regularizedIncompleteBeta(0.3, 1, 1) - 0.3) < 1e-14);
    assert.ok(Math.abs(regularizedIncompleteBeta(0.7, 3, 1) - 0.343) < 1e-14);
    assert.ok(Math.abs(regularizedIncompleteBeta(0.5, 4.5, 4.5) - 0.5) < 1e-14);
  });
});
