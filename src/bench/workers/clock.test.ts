import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromSharedSeconds, outputsFromSharedClock, outputsToSharedClock, threadClockOffsetMs, toSharedSeconds } from './clock.js';
import type { RequestOutput } from '../types.js';

function output(startTime: number): RequestOutput {
  return {
    generatedText: 'x', success: true, latency: 0.5, ttft: 0.1, itl: [0.01, 0.02], textChunks: [], promptLen: 3,
    error: '', outputLen: 3, startTime, queueTime: 0, failureCause: null,
  };
}

test('a time survives the trip to the shared clock and back to another thread', () => {
  const workerOffsetMs = 1_000_000.4;
  const mainOffsetMs = 1_000_000.1;
  const shared = toSharedSeconds(12.5, workerOffsetMs);
  // The same instant is 0.3 ms later on the main thread's performance.now().
  assert.ok(Math.abs(fromSharedSeconds(shared, mainOffsetMs) - 12.5003) < 1e-9);
});

test('only startTime moves; durations and the never-sent 0 stay as they are', () => {
  const [moved, unsent] = outputsFromSharedClock(outputsToSharedClock([output(5), output(0)], 250), 0);
  assert.ok(Math.abs(moved!.startTime - 5.25) < 1e-12);
  assert.deepEqual({ ...moved!, startTime: 5 }, output(5));
  assert.equal(unsent!.startTime, 0);
});

test('the offset of this thread is the gap between the hrtime and performance clocks', () => {
  const before = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const offset = threadClockOffsetMs();
  assert.ok(Math.abs(offset - before) < 1, `${offset} vs ${before}`);
});
