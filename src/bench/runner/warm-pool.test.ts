import assert from 'node:assert/strict';
import { test } from 'node:test';
import { warmPoolNotice, warmPoolSize } from './warm-pool.js';

const due = (...sendAts: number[]) => sendAts.map((sendAt) => ({ sendAt }));

test('the warm pool is as large as the requests that can be in flight at once', () => {
  assert.equal(warmPoolSize(due(0, 0, 0, 0, 0), 2, false), 2, '--max-concurrency');
  assert.equal(warmPoolSize(due(0, 0, 0), 8, false), 3, 'never more than the requests');
  assert.equal(warmPoolSize(due(0, 0, 0, 0), null, false), 4, 'an infinite rate: all due at once');
  assert.equal(warmPoolSize(due(0, 0.25, 0.5), null, false), 1, 'spread arrivals: the ones due first');
  assert.equal(warmPoolSize(due(1.5, 1.5, 2), null, false), 2, 'a trace starting later');
  assert.equal(warmPoolSize(due(0, 0), 2, true), 0, '--lazy-connect opens none');
  assert.equal(warmPoolSize([], 2, false), 0);
});

test('a pool that stopped short is noticed in one line; a full one is not', () => {
  assert.equal(warmPoolNotice(4, { opened: 4, error: null }), null);
  assert.equal(
    warmPoolNotice(2048, { opened: 1020, error: new Error('connect EMFILE 127.0.0.1:30000 - Local (undefined:undefined)') }),
    'warning: opened 1020 of 2048 connections before the measured phase (connect EMFILE 127.0.0.1:30000 - Local (undefined:undefined)); ' +
      'the others open when requests need them',
  );
});
