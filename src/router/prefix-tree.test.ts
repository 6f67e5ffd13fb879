import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrefixTree } from './prefix-tree.js';

const any = (): boolean => true;

test('a match follows shared prefixes through split edges and names the latest holder', () => {
  const tree = new PrefixTree();
  tree.insert('hello world', 'a');
  tree.insert('hello there', 'b');
  assert.deepEqual(tree.match('hello world!', any), { matched: 11, tenant: 'a' });
  assert.deepEqual(tree.match('hello you', any), { matched: 6, tenant: 'b' });
  assert.deepEqual(tree.match('hello you', (tenant) => tenant === 'a'), { matched: 6, tenant: 'a' });
  assert.deepEqual(tree.match('bye', any), { matched: 0, tenant: null });
});

test('eviction drops a tenant\'s least recently used leaves down to the limit', () => {
  const tree = new PrefixTree();
  tree.insert('aaaa-old', 'a');
  tree.insert('bbbb-new', 'a');
  assert.equal(tree.size('a'), 16);
  tree.evict(8);
  assert.equal(tree.size('a'), 8);
  assert.equal(tree.match('aaaa-old', any).matched, 0);
  assert.equal(tree.match('bbbb-new', any).matched, 8);
});
