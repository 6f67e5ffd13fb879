import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RadixCache } from './radix-cache.js';

describe('RadixCache', () => {
  test('matches the longest cached prefix, splitting nodes mid-run', () => {
    const cache = new RadixCache();
    assert.equal(cache.insert([1, 2, 3, 4, 5], 0), 5);
    assert.equal(cache.match([1, 2, 3, 9], 4, 1).length, 3);
    assert.equal(cache.insert([1, 2, 3, 9, 9], 2), 2, 'only the new suffix is added');
    assert.equal(cache.size, 7);
    assert.equal(cache.match([1, 2, 3, 4, 5, 6], 6, 3).length, 5);
    assert.equal(cache.match([7], 1, 3).length, 0);
  });

  test('the limit caps the match (the last prompt token is always computed)', () => {
    const cache = new RadixCache();
    cache.insert([1, 2, 3, 4], 0);
    assert.equal(cache.match([1, 2, 3, 4], 3, 1).length, 3);
  });

  test('locked paths are not evictable; unlocked leaves go least recently used first', () => {
    const cache = new RadixCache();
    cache.insert([1, 1, 1], 0);
    cache.insert([2, 2, 2], 1);
    cache.insert([3, 3, 3], 2);
    const pinned = cache.match([1, 1, 1], 3, 5);
    cache.lock(pinned.node);
    assert.equal(cache.evictable, 6);
    assert.equal(cache.evict(3), 3);
    assert.equal(cache.match([2, 2, 2], 3, 6).length, 0, 'the oldest unlocked leaf went first');
    assert.equal(cache.match([3, 3, 3], 3, 6).length, 3);
    assert.equal(cache.evict(100), 3, 'the locked path survives');
    assert.equal(cache.match([1, 1, 1], 3, 7).length, 3);
    cache.unlock(pinned.node);
    assert.equal(cache.evictable, 3);
    assert.equal(cache.evict(100), 3);
    assert.equal(cache.size, 0);
  });

  test('evicting a leaf exposes its parent as the next candidate', () => {
    const cache = new RadixCache();
    cache.insert([1, 2, 3], 0);
    cache.insert([1, 2, 4], 1);
    assert.equal(cache.size, 4);
    assert.equal(cache.evict(4), 4);
    assert.equal(cache.size, 0);
    assert.equal(cache.evictable, 0);
  });

  test('reset empties everything', () => {
    const cache = new RadixCache();
    cache.insert([1, 2], 0);
    cache.reset();
    assert.deepEqual([cache.size, cache.evictable, cache.match([1, 2], 2, 0).length], [0, 0, 0]);
  });
});
