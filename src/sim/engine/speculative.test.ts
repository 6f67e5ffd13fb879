import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seededUniform } from '../text/seeded-random.js';
import { drawAcceptRate, drawAcceptedTokens, expectedAcceptLength } from './speculative.js';

describe('speculative acceptance', () => {
  test('expected accept length of a chain', () => {
    assert.equal(expectedAcceptLength(0, 4), 1);
    assert.equal(expectedAcceptLength(1, 4), 4);
    assert.ok(Math.abs(expectedAcceptLength(0.68, 4) - 2.46) < 0.01);
  });

  test('per-iteration draws average to the chain expectation and stay within [1, draft tokens]', () => {
    const random = seededUniform(1, 7);
    let sum = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const k = drawAcceptedTokens(random, 0.7, 4);
      assert.ok(k >= 1 && k <= 4);
      sum += k;
    }
    assert.ok(Math.abs(sum / n - expectedAcceptLength(0.7, 4)) < 0.03);
  });

  test('per-request rates spread around the mean, clipped to (0, 1)', () => {
    const random = seededUniform(3, 0);
    const rates = Array.from({ length: 2000 }, () => drawAcceptRate(random, 0.7, 0.1));
    const mean = rates.reduce((a, b) => a + b) / rates.length;
    assert.ok(Math.abs(mean - 0.7) < 0.01);
    assert.ok(Math.min(...rates) >= 0.02 && Math.max(...rates) <= 0.98);
    assert.ok(new Set(rates).size > 1900);
  });
});
