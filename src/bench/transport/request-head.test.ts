import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveTarget, serializeRequest } from './request-head.js';

test('URL credentials become Basic auth (percent-escapes decoded) and never reach the request line or Host', () => {
  const target = resolveTarget('http://user:p%40ss@127.0.0.1:8000/generate');
  const wire = serializeRequest('POST', target, {}, '{}');
  assert.match(wire, /^POST \/generate HTTP\/1\.1\r\n/);
  assert.match(wire, /\r\nHost: 127\.0\.0\.1:8000\r\n/);
  assert.match(wire, new RegExp(`\\r\\nAuthorization: Basic ${Buffer.from('user:p@ss').toString('base64')}\\r\\n`));
  assert.ok(!wire.includes('p%40ss') && !wire.includes('p@ss'));
});

test("a caller's Authorization wins over the URL's credentials; no userinfo, no Basic auth", () => {
  const withKey = serializeRequest('GET', resolveTarget('http://u:p@h/x'), { authorization: 'Bearer k' }, undefined);
  assert.deepEqual(withKey.match(/authorization: .*/gi), ['authorization: Bearer k']);
  assert.ok(!serializeRequest('GET', resolveTarget('http://h/x'), {}, undefined).includes('Authorization'));
});

test('an unsupported scheme is reported without the URL\'s password', () => {
  assert.throws(() => resolveTarget('ftp://u:hunter2@h/x'), (error: Error) => !error.message.includes('hunter2'));
});
