import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, type Candidate, type PolicyName } from './policies.js';

const SETTINGS = { cacheThreshold: 0.3, balanceAbsThreshold: 64, balanceRelThreshold: 1.5 };

/** A random source that replays the given draws in a loop. */
function draws(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

function pool(...loads: number[]): Candidate[] {
  return loads.map((load, i) => ({ url: `http://w${i}`, load }));
}

function policy(name: PolicyName, random = draws(0.5), settings = SETTINGS) {
  return createPolicy(name, { ...settings, random });
}

test('random picks the index its draws give, the same for the same draws', () => {
  const picks = (random: () => number) => Array.from({ length: 4 }, () => policy('random', random).select(pool(0, 0, 0), ''));
  assert.deepEqual(picks(draws(0.1, 0.5, 0.9, 0.99)), [0, 1, 2, 2]);
  assert.deepEqual(picks(draws(0.1, 0.5, 0.9, 0.99)), picks(draws(0.1, 0.5, 0.9, 0.99)));
});

test('round_robin cycles in order whatever the loads', () => {
  const rr = policy('round_robin');
  assert.deepEqual(Array.from({ length: 7 }, () => rr.select(pool(9, 0, 5), '')), [0, 1, 2, 0, 1, 2, 0]);
});

test('power_of_two compares two distinct workers and takes the less loaded', () => {
  // Draws 0.0 then 0.0: workers 0 and 1; worker 1 is lighter.
  assert.equal(policy('power_of_two', draws(0, 0)).select(pool(5, 1, 0), ''), 1);
  // Draws 0.0 then 0.99: workers 0 and 2 (never 0 twice); worker 2 is lighter.
  assert.equal(policy('power_of_two', draws(0, 0.99)).select(pool(5, 1, 0), ''), 2);
  // Equal loads keep the first drawn.
  assert.equal(policy('power_of_two', draws(0.7, 0)).select(pool(3, 3, 3), ''), 2);
});

test('cache_aware sends a shared prefix to the worker that holds it, new text to the least loaded', () => {
  const cache = policy('cache_aware');
  const prefix = 'You are a helpful assistant. Answer briefly. ';
  assert.equal(cache.select(pool(0, 0), `${prefix}What is 2+2?`), 0);
  // Worker 0 now has load; the shared prefix still wins while the loads are balanced.
  assert.equal(cache.select(pool(3, 0), `${prefix}Name a color.`), 0);
  assert.equal(cache.select(pool(6, 0), `${prefix}Name a fruit.`), 0);
  // Unrelated text matches under --cache-threshold: the least loaded worker, which then holds it.
  assert.equal(cache.select(pool(6, 0), 'Translate to French: good morning'), 1);
  assert.equal(cache.select(pool(0, 6), 'Translate to French: good night'), 1);
});

test('cache_aware leaves the prefix for the least loaded worker once both balance thresholds trip', () => {
  const cache = policy('cache_aware', draws(0.5), { cacheThreshold: 0.3, balanceAbsThreshold: 4, balanceRelThreshold: 2 });
  const prefix = 'system: be terse. user: ';
  cache.select(pool(0, 0), `${prefix}hello`);
  // 10 - 5 > 4 but 10 <= 5 × 2: balanced still, affinity holds.
  assert.equal(cache.select(pool(10, 5), `${prefix}hi`), 0);
  // 5 - 0 > 4 and 5 > 0 × 2: imbalanced, the least loaded worker.
  assert.equal(cache.select(pool(5, 0), `${prefix}hey`), 1);
  // 4 - 0 is not > 4: balanced, back to the prefix (both hold it now; the latest holder wins).
  assert.equal(cache.select(pool(4, 0), `${prefix}yo`), 1);
});

test('cache_aware needs more than --cache-threshold of the text matched', () => {
  const strict = policy('cache_aware', draws(0.5), { ...SETTINGS, cacheThreshold: 0.9 });
  strict.select(pool(0, 0), 'abcdefghij');
  // 5 of 10 chars matched: 0.5 is not > 0.9, so the least loaded worker.
  assert.equal(strict.select(pool(1, 0), 'abcde12345'), 1);
  // 10 of 10: affinity.
  assert.equal(strict.select(pool(1, 0), 'abcdefghij'), 0);
});

test('cache_aware only matches workers that are candidates now', () => {
  const cache = policy('cache_aware');
  cache.select(pool(0, 0), 'the same long prompt text');
  const onlyWorker1 = [{ url: 'http://w1', load: 0 }];
  assert.equal(cache.select(onlyWorker1, 'the same long prompt text'), 0);
});
