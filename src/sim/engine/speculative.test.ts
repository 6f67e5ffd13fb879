import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seededUniform } from '../text/seeded-random.js';
import { acceptRateAt, bodyRateForPopulation, drawAcceptedTokens, expectedAcceptLength, inTail, rateForLength } from './speculative.js';

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

  test('per-request rates spread around the mean with the given deviation, clipped to (0, 1)', () => {
    const rates = Array.from({ length: 2000 }, (_, i) => acceptRateAt(i, 0.7, 0.1));
    const mean = rates.reduce((a, b) => a + b) / rates.length;
    const deviation = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / rates.length);
    assert.ok(Math.abs(mean - 0.7) < 0.005);
    assert.ok(Math.abs(deviation - 0.1) < 0.01, `deviation ${deviation}`);
    assert.ok(Math.min(...rates) >= 0.02 && Math.max(...rates) <= 0.98);
    assert.ok(new Set(rates).size > 1900);
  });

  test('any ten consecutive requests sample the spread evenly; a lone request gets the mean', () => {
    assert.equal(acceptRateAt(0, 0.5, 0.08), 0.5);
    for (let first = 0; first < 1000; first++) {
      const rates = Array.from({ length: 10 }, (_, i) => acceptRateAt(first + i, 0.5, 0.08));
      const mean = rates.reduce((a, b) => a + b) / rates.length;
      // Ten independent draws of deviation 0.08 miss the mean by more than 0.03 one time in four.
      assert.ok(Math.abs(mean - 0.5) < 0.03, `requests ${first}..${first + 9}: mean ${mean}`);
    }
  });

  test('rateForLength inverts the chain expectation', () => {
    for (const rate of [0.05, 0.5, 0.8]) assert.ok(Math.abs(rateForLength(expectedAcceptLength(rate, 4), 4) - rate) < 1e-9);
    assert.ok(rateForLength(1.05, 4) < 0.05);
  });

  test('the low tail takes exactly its share of requests, placed by the seeded phase', () => {
    for (const phase of [0, 0.37, 0.99]) {
      const tail = Array.from({ length: 100 }, (_, i) => inTail(i, 0.06, phase)).filter(Boolean).length;
      assert.ok(tail === 6 || tail === 7, `phase ${phase}: ${tail}`);
    }
    const at = (phase: number) => Array.from({ length: 64 }, (_, i) => i).filter((i) => inTail(i, 0.06, phase));
    assert.notDeepEqual(at(0.1), at(0.6));
  });

  test('the body rate makes the whole workload average the given accept length, tail included', () => {
    const tail = { fraction: 0.06, acceptLength: 1.05 };
    const body = expectedAcceptLength(bodyRateForPopulation(2.67, 4, tail), 4);
    // bench's accept length weighs requests by verify passes: 1/L = (1 − f)/body + f/tail.
    assert.ok(Math.abs(1 / (0.94 / body + 0.06 / 1.05) - 2.67) < 1e-6);
    assert.ok(Math.abs(expectedAcceptLength(bodyRateForPopulation(2.46, 4, null), 4) - 2.46) < 1e-6);
  });
});
