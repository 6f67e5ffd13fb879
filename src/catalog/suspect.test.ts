import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suspectWarnings } from './suspect.js';

test('a clean run has no warning; a saturated client, a sim behind its model and failures each give one', () => {
  assert.deepEqual(suspectWarnings({ completed: 10, failed: 0, client_self_check: 'Client self-check: timing error <= 0.4 ms for every request', sim_self_check: 'Simulated server self-check: write lateness p50 0.02 ms' }), []);
  assert.deepEqual(
    suspectWarnings({
      completed: 90,
      failed: 10,
      failed_http_429: 6,
      failed_stalled: 4,
      failed_http_5xx: 0,
      client_self_check: 'WARNING client saturated: timing error <= 9.1 ms for every request; its latencies include client delay',
      sim_self_check: 'WARNING simulated server fell behind its model (write lateness p99 3.1 ms)',
    }),
    [
      'client saturated: timing error <= 9.1 ms for every request; its latencies include client delay',
      'simulated server fell behind its model (write lateness p99 3.1 ms)',
      '10 of 100 requests failed (http_429 6, stalled 4); the figures are of the 90 that completed',
    ],
  );
});
