import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultWorkerCount, resolveWorkerCount, workerForArrival } from './plan.js';

test('workers default to half the cores, between 1 and 8', () => {
  assert.deepEqual([1, 2, 3, 4, 8, 16, 64].map(defaultWorkerCount), [1, 1, 1, 2, 4, 8, 8]);
});

test('arrivals go round-robin, so every worker gets an even share of each stretch of the run', () => {
  const shares = [0, 0, 0];
  for (let ordinal = 0; ordinal < 9; ordinal++) shares[workerForArrival(ordinal, 3)]! += 1;
  assert.deepEqual(shares, [3, 3, 3]);
  assert.deepEqual([0, 1, 2, 3, 4].map((ordinal) => workerForArrival(ordinal, 2)), [0, 1, 0, 1, 0]);
});

test('--workers is capped by the cores and by the requests, with a note saying which', () => {
  assert.deepEqual(resolveWorkerCount(1000, 2, 5), { workers: 2, note: 'note: --workers 1000 capped to 2: this machine has 2 cores' });
  assert.deepEqual(resolveWorkerCount(8, 16, 3), { workers: 3, note: 'note: --workers 8 capped to 3: the run has 3 requests' });
  assert.deepEqual(resolveWorkerCount(4, 16, 100), { workers: 4, note: null });
});

test('the default count is capped silently: nobody asked for more', () => {
  assert.deepEqual(resolveWorkerCount(null, 16, 2), { workers: 2, note: null });
  assert.deepEqual(resolveWorkerCount(null, 16, 100), { workers: 8, note: null });
  assert.deepEqual(resolveWorkerCount(null, 16, 0), { workers: 1, note: null });
});
