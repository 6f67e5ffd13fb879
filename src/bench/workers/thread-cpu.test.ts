import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStatCpuSeconds, parseStatCpuTimes, threadCpuClock } from './thread-cpu.js';

test('utime and stime are read after the last parenthesis of the command name', () => {
  const stat = '4242 (node (worker) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 11 0 1000 0 0';
  assert.deepEqual(parseStatCpuTimes(stat), { userSeconds: 2.5, systemSeconds: 0.75 });
  assert.equal(parseStatCpuSeconds(stat), 3.25);
});

test('an unreadable stat line is an error, not a zero', () => {
  assert.throws(() => parseStatCpuSeconds('garbage'), /unreadable stat line/);
});

test('the thread clock advances with work done on this thread', () => {
  const cpuNow = threadCpuClock();
  const start = cpuNow();
  // Burn 60 ms of CPU, not of wall time: on a busy machine this thread may wait for a core, and
  // wall time then overstates the work done (the process clock is µs-precise; this thread is its
  // only busy one). A 5 s cap keeps a broken clock from hanging the test.
  const processCpuStart = process.cpuUsage();
  const giveUpAt = performance.now() + 5000;
  while (process.cpuUsage(processCpuStart).user < 60_000 && performance.now() < giveUpAt) {
    // Burns CPU on this thread.
  }
  assert.ok(cpuNow() - start >= 0.02, `${cpuNow() - start}`);
});
