import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultWorkerCount, workerForArrival } from './plan.js';

test('workers default to half the cores, between 1 and 8', () => {
  assert.deepEqual([1, 2, 3, 4, 8, 16, 64].map(defaultWorkerCount), [1, 1, 1, 2, 4, 8, 8]);
});

test('arrivals go round-robin, so every worker gets an even share of each stretch of the run', () => {
  const shares = [0, 0, 0];
  for (let ordinal = 0; ordinal < 9; ordinal++) shares[workerForArrival(ordinal, 3)]! += 1;
  assert.deepEqual(shares, [3, 3, 3]);
  assert.deepEqual([0, 1, 2, 3, 4].map((ordinal) => workerForArrival(ordinal, 2)), [0, 1, 0, 1, 0]);
});
