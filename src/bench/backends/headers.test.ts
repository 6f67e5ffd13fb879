import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authHeaders, parseCustomHeaders, requestHeaders } from './headers.js';

test('auth: OPENAI_API_KEY as Bearer wins over raw API_KEY; none when both empty', () => {
  assert.deepEqual(authHeaders({ OPENAI_API_KEY: 'k1', API_KEY: 'k2' }), { Authorization: 'Bearer k1' });
  assert.deepEqual(authHeaders({ OPENAI_API_KEY: '', API_KEY: 'k2' }), { Authorization: 'k2' });
  assert.deepEqual(authHeaders({}), {});
});

test('--header entries split at the first "=", empty keys or values dropped, custom overrides auth', () => {
  const custom = parseCustomHeaders(['X-A=1=2', '=v', 'X-Empty=', 'novalue', 'Authorization=Token t']);
  assert.deepEqual(custom, { 'X-A': '1=2', Authorization: 'Token t' });
  const headers = requestHeaders({ ...authHeaders({ API_KEY: 'k' }), ...custom }, 'group-1');
  assert.equal(headers.Authorization, 'Token t');
  assert.equal(headers['X-SMG-Routing-Key'], 'group-1');
  assert.equal(headers['Content-Type'], 'application/json');
});
