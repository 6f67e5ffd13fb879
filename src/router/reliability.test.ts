import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreaker } from './circuit-breaker.js';
import { errorBody, streamErrorChunk, upstreamMessage, workerRefusal } from './errors.js';
import { backoffMs, isRetryableStatus } from './retry.js';

test('a circuit opens after consecutive failures, half-opens after its timeout, closes after successes', () => {
  const breaker = new CircuitBreaker({ failureThreshold: 3, successThreshold: 2, timeoutMs: 1000, disabled: false });
  breaker.record(false, 0);
  breaker.record(false, 1);
  breaker.record(true, 2);
  breaker.record(false, 3);
  breaker.record(false, 4);
  assert.equal(breaker.state(5), 'closed');
  breaker.record(false, 5);
  assert.equal(breaker.state(6), 'open');
  assert.equal(breaker.allows(1004), false);
  assert.equal(breaker.state(1005), 'half_open');
  breaker.record(false, 1006);
  assert.equal(breaker.state(1007), 'open');
  assert.equal(breaker.state(2006), 'half_open');
  breaker.record(true, 2007);
  assert.equal(breaker.state(2008), 'half_open');
  breaker.record(true, 2009);
  assert.equal(breaker.state(2010), 'closed');
});

test('--disable-circuit-breaker never opens', () => {
  const breaker = new CircuitBreaker({ failureThreshold: 1, successThreshold: 1, timeoutMs: 1000, disabled: true });
  breaker.record(false, 0);
  assert.equal(breaker.state(1), 'closed');
});

test('retries on 408, 429 and 5xx with a capped, jittered exponential backoff', () => {
  assert.deepEqual([408, 429, 500, 502, 503, 504, 400, 404, 501].map(isRetryableStatus), [true, true, true, true, true, true, false, false, false]);
  const settings = { maxAttempts: 5, initialBackoffMs: 50, maxBackoffMs: 100, multiplier: 1.5, jitterFactor: 0.2 };
  assert.equal(backoffMs(settings, 0, 0.5), 50);
  assert.equal(backoffMs(settings, 1, 0.5), 75);
  assert.equal(backoffMs(settings, 1, 1), 90);
  assert.equal(backoffMs(settings, 1, 0), 60);
  assert.equal(backoffMs(settings, 5, 1), 100);
});

test('worker refusals map to the router\'s codes and bodies; the stream chunk is SGLang\'s, quotes and all', () => {
  assert.deepEqual(workerRefusal('prefill', 503, 'busy'), { status: 503, code: 'prefill_unavailable', message: 'Prefill server error (503): busy' });
  assert.deepEqual(workerRefusal('decode', 429, 'slow down'), { status: 500, code: 'decode_error', message: 'Decode server error (429): slow down' });
  assert.equal(errorBody({ status: 502, code: 'prefill_server_error', message: 'm' }), '{"error":{"type":"Bad Gateway","code":"prefill_server_error","message":"m"}}');
  assert.equal(upstreamMessage('{"error":{"message":"too long"}}'), 'too long');
  assert.equal(upstreamMessage('{"message":"x"}'), 'x');
  assert.equal(upstreamMessage('plain'), 'plain');
  assert.equal(streamErrorChunk(500, '{"object":"error"}'), 'data: {\'error\': {"message":{"object":"error"},"status":500}}');
  assert.equal(streamErrorChunk(503, 'down'), 'data: {\'error\': {"message":"down","status":503}}');
});
