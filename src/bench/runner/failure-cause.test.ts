import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MalformedChunkError } from '../backends/timeline.js';
import {
  AbortedError,
  BadStatusError,
  ConnectionClosedError,
  EmptyResponseError,
  MalformedResponseError,
  StalledError,
} from '../transport/errors.js';
import { failureOf } from './failure-cause.js';

/** A socket error as Node raises it. */
function socketError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

test('each typed error of the transport and the backends maps to its failure cause', () => {
  assert.deepEqual(failureOf(new BadStatusError(429, 'Too Many Requests: slow down')), { cause: 'http_429', message: 'Too Many Requests: slow down' });
  assert.equal(failureOf(new BadStatusError(404, 'Not Found: x')).cause, 'http_4xx');
  assert.equal(failureOf(new BadStatusError(503, 'Service Unavailable: x')).cause, 'http_5xx');
  assert.equal(failureOf(new BadStatusError(302, 'Found: x')).cause, 'http_other');
  assert.equal(failureOf(new EmptyResponseError('empty response: HTTP 200 with no body')).cause, 'empty_response');
  assert.equal(failureOf(new StalledError('stalled')).cause, 'stalled');
  assert.equal(failureOf(new AbortedError('aborted')).cause, 'aborted');
  assert.equal(failureOf(new MalformedResponseError('bad chunk size')).cause, 'malformed_chunk');
  assert.equal(failureOf(new MalformedChunkError('malformed chunk: x')).cause, 'malformed_chunk');
  assert.deepEqual(failureOf(new ConnectionClosedError('closed')), { cause: 'reset', message: 'connection reset: closed' });
});

test('socket errors map by their code, also when wrapped as a cause', () => {
  assert.deepEqual(failureOf(socketError('ECONNREFUSED', 'connect ECONNREFUSED')), { cause: 'connection', message: 'connection refused: connect ECONNREFUSED' });
  assert.deepEqual(failureOf(socketError('ENOTFOUND', 'getaddrinfo ENOTFOUND x')), { cause: 'connection', message: 'cannot connect: getaddrinfo ENOTFOUND x' });
  assert.equal(failureOf(socketError('EPIPE', 'write EPIPE')).cause, 'reset');
  assert.equal(failureOf(new Error('fetch failed', { cause: socketError('ECONNRESET', 'read ECONNRESET') })).cause, 'reset');
  assert.deepEqual(failureOf(new Error('something else')), { cause: 'other', message: 'something else' });
});
