import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrefillRooms, type KvReady } from './prefill-rooms.js';

const READY: KvReady = { promptTokens: 100, sentBytesPerToken: 1000, linkBytesPerSec: 1e9, latencySec: 1e-5 };

test('a decode that connects first lets the prefill start at once, and learns when its KV is ready', async () => {
  const rooms = new PrefillRooms();
  const kv = rooms.connect('7', new AbortController().signal);
  assert.equal(await rooms.awaitDecode('7', 1000, new AbortController().signal), true);
  rooms.prefillDone('7', READY);
  assert.deepEqual(await kv, READY);
  rooms.release('7');
});

test('a prefill that comes first waits for its decode; without one it gives up after the bootstrap timeout', async () => {
  const rooms = new PrefillRooms();
  const waiting = rooms.awaitDecode('8', 1000, new AbortController().signal);
  void rooms.connect('8', new AbortController().signal);
  assert.equal(await waiting, true);
  assert.equal(await rooms.awaitDecode('9', 10, new AbortController().signal), false);
});

test('a decode that gives up stops waiting; rooms are per room, not shared', async () => {
  const rooms = new PrefillRooms();
  const gone = new AbortController();
  const kv = rooms.connect('9223372036854775806', gone.signal);
  rooms.prefillDone('9223372036854775807', READY);
  gone.abort();
  assert.equal(await kv, null);
});
