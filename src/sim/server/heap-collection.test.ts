import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COLLECT_AFTER_BODY_BYTES, HeapCollection } from './heap-collection.js';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('refusals of big bodies close together share one collection; small bodies get none', async () => {
  let collections = 0;
  const heap = new HeapCollection(() => collections++, 20);
  heap.afterRefusal(COLLECT_AFTER_BODY_BYTES - 1);
  await settle(60);
  assert.equal(collections, 0);
  for (let i = 0; i < 5; i++) heap.afterRefusal(COLLECT_AFTER_BODY_BYTES);
  await settle(60);
  assert.equal(collections, 1);
  heap.afterRefusal(30_000_000);
  await settle(60);
  assert.equal(collections, 2);
});

test('a pending collection is dropped when the server stops', async () => {
  let collections = 0;
  const heap = new HeapCollection(() => collections++, 20);
  heap.afterRefusal(COLLECT_AFTER_BODY_BYTES);
  heap.stop();
  await settle(60);
  assert.equal(collections, 0);
});
