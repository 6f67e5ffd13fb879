import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { NumpyRandomState } from '../../core/rng.js';
import { UsageError } from '../../core/errors.js';
import { computeRandomLens, numpySumText } from './lengths.js';

const names = { length: '--random-input-len', ratio: '--random-range-ratio' };

describe('computeRandomLens', () => {
  test('r = 0 draws uniformly over [1, L] (spec vector)', () => {
    const lens = computeRandomLens(new NumpyRandomState(1), 1024, 0, 5, names);
    assert.deepEqual(lens, [38, 236, 909, 73, 768]);
    const many = computeRandomLens(new NumpyRandomState(2), 8, 0, 2000, names);
    assert.equal(Math.min(...many), 1);
    assert.equal(Math.max(...many), 8);
  });

  test('r = 0.5 draws over [⌊L/2⌋, L]', () => {
    assert.deepEqual(computeRandomLens(new NumpyRandomState(1), 1024, 0.5, 5, names), [549, 747, 584, 656, 641]);
    const many = computeRandomLens(new NumpyRandomState(3), 10, 0.5, 2000, names);
    assert.equal(Math.min(...many), 5);
    assert.equal(Math.max(...many), 10);
  });

  test('r = 1 gives exactly L and draws nothing', () => {
    const rs = new NumpyRandomState(1);
    assert.deepEqual(computeRandomLens(rs, 3500, 1, 4, names), [3500, 3500, 3500, 3500]);
    assert.deepEqual(rs.randint(1, 1025, 1), [38]);
  });

  test('r > 1 and non-positive lengths are usage errors', () => {
    assert.throws(() => computeRandomLens(new NumpyRandomState(1), 100, 1.5, 3, names), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(e.message, /--random-range-ratio 1\.5 .* use a ratio between 0 and 1/);
      return true;
    });
    assert.throws(() => computeRandomLens(new NumpyRandomState(1), 0, 0, 3, names), /--random-input-len must be a positive integer/);
  });

  test('numpy sum text', () => {
    assert.equal(numpySumText([1, 2, 3]), '6');
    assert.equal(numpySumText([]), '0.0');
  });
});
