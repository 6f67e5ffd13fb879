import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchSize, bootstrapHost, injectBootstrap, newBootstrapRoom } from './bootstrap.js';
import { jsonMembers } from './json-members.js';

test('rooms are uniform 63-bit BigInts, most of them beyond a JS number\'s exact range', () => {
  const rooms = Array.from({ length: 200 }, newBootstrapRoom);
  assert.ok(rooms.every((room) => room >= 0n && room <= 2n ** 63n - 1n));
  assert.ok(rooms.filter((room) => room > 2n ** 53n).length > 150);
  assert.equal(new Set(rooms).size, 200);
});

test('injection writes the room digit for digit and passes every other member through as written', () => {
  const room = 9223372036854775807n;
  const body = '{ "text": "hi, {there}", "sampling_params": {"seed": 18446744073709551615, "x": [1, 2]}, "big": 1e400, "bootstrap_room": 1 }';
  const out = injectBootstrap(body, { host: '10.0.0.1', port: 8998 }, null, () => room);
  assert.equal(out, '{"text":"hi, {there}","sampling_params":{"seed": 18446744073709551615, "x": [1, 2]},"big":1e400,"bootstrap_host":"10.0.0.1","bootstrap_port":8998,"bootstrap_room":9223372036854775807}');
  assert.deepEqual(jsonMembers(out).map((member) => member.key), ['text', 'sampling_params', 'big', 'bootstrap_host', 'bootstrap_port', 'bootstrap_room']);
});

test('a batch gets arrays, one fresh room per request; an omitted port is null', () => {
  let next = 5n;
  const out = injectBootstrap('{"input_ids":[[1],[2],[3]]}', { host: 'p', port: null }, 3, () => next++);
  assert.match(out, /"bootstrap_host":\["p","p","p"\],"bootstrap_port":\[null,null,null\],"bootstrap_room":\[5,6,7\]/);
});

test('batch sizes as the router reads them per route', () => {
  assert.equal(batchSize('/generate', { input_ids: [[1], [2]] }), 2);
  assert.equal(batchSize('/generate', { input_ids: [1, 2] }), null);
  assert.equal(batchSize('/generate', { text: 'a' }), null);
  assert.equal(batchSize('/v1/chat/completions', { n: 3 }), 3);
  assert.equal(batchSize('/v1/chat/completions', { n: 1 }), null);
  assert.equal(batchSize('/v1/completions', { prompt: ['a', 'b'] }), 2);
  assert.equal(batchSize('/v1/completions', { prompt: [1, 2, 3] }), null);
});

test('the bootstrap host is the prefill URL\'s host without port or dp rank; IPv6 keeps its brackets', () => {
  assert.equal(bootstrapHost('http://10.1.2.3:30000'), '10.1.2.3');
  assert.equal(bootstrapHost('http://prefill-1:8000@2'), 'prefill-1');
  assert.equal(bootstrapHost('http://[::1]:8000'), '[::1]');
});
