import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authHeaders, parseCustomHeaders, requestHeaders, runHeaders } from './headers.js';

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

test('--header accepts "Key: Value" and "Key=Value"; the value keeps later ":" and "="', () => {
  assert.deepEqual(parseCustomHeaders(['Authorization: Bearer abc==', 'X-Url=http://h:1/p?a=b', 'X-Sig: k=v', 'X-Blank:  ']), {
    Authorization: 'Bearer abc==',
    'X-Url': 'http://h:1/p?a=b',
    'X-Sig': 'k=v',
  });
});

test('run headers: --header everywhere, the environment\'s auth only where bench_serving sends it', () => {
  const headers = runHeaders({ OPENAI_API_KEY: 'k' }, ['X-Team: t']);
  assert.deepEqual(headers.withAuth, { Authorization: 'Bearer k', 'X-Team': 't' });
  assert.deepEqual(headers.withoutAuth, { 'X-Team': 't' });
});
