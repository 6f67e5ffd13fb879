import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { center, formatFixed, ljust, pyFloat, pyFloatRepr, pyNumberStr } from './pyformat.js';

describe('pyFloatRepr', () => {
  const cases: Array<[number, string]> = [
    [1, '1.0'],
    [16, '16.0'],
    [0.5, '0.5'],
    [0.1, '0.1'],
    [0, '0.0'],
    [-0, '-0.0'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [NaN, 'nan'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [0.00012345, '0.00012345'],
    [1e15, '1000000000000000.0'],
    [9999999999999998, '9999999999999998.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [1.5e300, '1.5e+300'],
    [5e-324, '5e-324'],
    [-2.5e-7, '-2.5e-07'],
    [123.456, '123.456'],
    [1e22, '1e+22'],
  ];
  for (const [value, expected] of cases) {
    test(`${String(value)} → ${expected}`, () => assert.equal(pyFloatRepr(value), expected));
  }
});

describe('formatFixed (Python {:.Nf})', () => {
  test('exact binary ties round half to even', () => {
    assert.equal(formatFixed(0.125, 2), '0.12');
    assert.equal(formatFixed(0.375, 2), '0.38');
    assert.equal(formatFixed(0.625, 2), '0.62');
    assert.equal(formatFixed(-0.125, 2), '-0.12');
    assert.equal(formatFixed(2.5, 0), '2');
    assert.equal(formatFixed(3.5, 0), '4');
    assert.equal(formatFixed(0.5, 0), '0');
  });
  test('non-ties round the exact binary value', () => {
    assert.equal(formatFixed(2.675, 2), '2.67'); // 2.67499999…
    assert.equal(formatFixed(1.005, 2), '1.00'); // 1.00499999…
    assert.equal(formatFixed(336.53, 2), '336.53');
    assert.equal(formatFixed(0.585, 2), '0.58'); // 0.58499999…
    assert.equal(formatFixed(5e-324, 2), '0.00');
  });
  test('sign of values rounding to zero is kept', () => {
    assert.equal(formatFixed(-0.001, 2), '-0.00');
    assert.equal(formatFixed(-0, 2), '-0.00');
  });
  test('large and non-finite values', () => {
    assert.equal(formatFixed(1e21, 2), '1000000000000000000000.00');
    assert.equal(formatFixed(1.5e22, 1), '15000000000000000000000.0');
    assert.equal(formatFixed(Infinity, 2), 'inf');
    assert.equal(formatFixed(-Infinity, 2), '-inf');
    assert.equal(formatFixed(NaN, 2), 'nan');
  });
});

describe('padding and numbers', () => {
  test('ljust pads on the right and never truncates', () => {
    assert.equal(ljust('ab', 5), 'ab   ');
    assert.equal(ljust('abcdef', 3), 'abcdef');
  });
  test('center puts the odd fill character on the right', () => {
    assert.equal(center('ab', 5, '-'), '-ab--');
    assert.equal(center('Time to First Token', 50, '-'), '---------------Time to First Token----------------');
  });
  test('integral JS numbers are ints unless wrapped', () => {
    assert.equal(pyNumberStr(3), '3');
    assert.equal(pyNumberStr(pyFloat(3)), '3.0');
    assert.equal(pyNumberStr(2.5), '2.5');
    assert.equal(pyNumberStr(Infinity), 'inf');
  });
});
