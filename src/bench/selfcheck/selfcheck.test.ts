import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLoopHealthMonitor } from './monitor.js';
import { judgeClient, requestBoundsOf } from './verdict.js';

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Deliberately blocks the event loop.
  }
}

test('an idle loop gets a clean verdict; without a timed request it states the loop delay', async () => {
  const monitor = startLoopHealthMonitor();
  await sleep(150);
  const verdict = judgeClient([monitor.stop()]);
  assert.equal(verdict.saturated, false);
  assert.match(verdict.line, /^Client self-check: no request timed; event-loop delay <= \d+\.\d\d ms at p99/);
  assert.ok(verdict.timingErrorBoundMs < 10);
});

const calmLoop = { delayP50Ms: 0.1, delayP99Ms: 0.8, delayMaxMs: 2, cpuSeconds: 0.3, wallSeconds: 1 };

test('calm requests: one bound for every request, the largest of theirs', () => {
  const verdict = judgeClient([calmLoop], [0.0012, 0.0025, 0.0019, 0.0031]);
  assert.equal(verdict.timingErrorBoundMs, 3.1);
  assert.equal(verdict.requestsOverBound, 0);
  assert.equal(verdict.requestsTimed, 4);
  assert.match(verdict.line, /^Client self-check: timing error <= 3\.10 ms for every request \(worst loop stall 2\.0 ms\), client CPU 30% of a core$/);
});

test('a stall: the calm bound, and how many requests it delayed and by how much', () => {
  const calm = Array.from({ length: 9 }, (_, i) => 0.001 + i * 0.0002);
  const verdict = judgeClient([{ ...calmLoop, delayMaxMs: 44.5 }], [...calm, 0.0469, 0.0312]);
  assert.equal(verdict.requestsOverBound, 2);
  assert.ok(Math.abs(verdict.timingErrorBoundMs - 2.6) < 1e-9);
  assert.equal(verdict.worstRequestBoundMs, 46.9);
  assert.equal(verdict.saturated, false);
  assert.match(
    verdict.line,
    /^Client self-check: timing error <= 2\.60 ms for 9 of 11 requests; 2 read a token or the end after a loop stall and may be off by up to 46\.90 ms \(worst loop stall 44\.5 ms\)/,
  );
});

test('requests the bound does not cover never pass unnoticed: every request is within the bound or counted with its own', () => {
  const bounds = [0.002, 0.0021, 0.05, 0.0019, 0.2, 0.0022, 0.0024];
  const verdict = judgeClient([calmLoop], bounds);
  const uncovered = bounds.filter((bound) => bound * 1000 > verdict.timingErrorBoundMs).length;
  assert.equal(uncovered, verdict.requestsOverBound);
  assert.equal(verdict.worstRequestBoundMs, 200);
});

test('a deliberately blocked event loop is detected', async () => {
  const monitor = startLoopHealthMonitor();
  for (let i = 0; i < 6; i++) {
    busyWait(60);
    await sleep(2);
  }
  const verdict = judgeClient([monitor.stop()]);
  assert.equal(verdict.saturated, true);
  assert.ok(verdict.worstStallMs >= 50, `worst stall ${verdict.worstStallMs}`);
  assert.match(verdict.line, /^WARNING client saturated:/);
});

test('requestBoundsOf takes the successful requests that carry a bound', () => {
  const outputs = [
    { success: true, stampLatenessBound: 0.002 },
    { success: false, stampLatenessBound: 0.5 },
    { success: true },
    { success: true, stampLatenessBound: 0.003 },
  ];
  assert.deepEqual(requestBoundsOf(outputs), [0.002, 0.003]);
});

test('the worst loop sets the bound when several workers report (no request timed)', () => {
  const calm = { delayP50Ms: 0.1, delayP99Ms: 0.8, delayMaxMs: 2, cpuSeconds: 0.3, wallSeconds: 1 };
  const busy = { delayP50Ms: 0.5, delayP99Ms: 3.5, delayMaxMs: 9, cpuSeconds: 0.6, wallSeconds: 1 };
  const verdict = judgeClient([calm, busy]);
  assert.equal(verdict.timingErrorBoundMs, 3.5);
  assert.equal(verdict.worstStallMs, 9);
  assert.equal(verdict.cpuFraction, 0.6);
  assert.equal(verdict.saturated, false);
  assert.match(verdict.line, /busiest of 2 loops/);
});

test('CPU near a full core counts as saturation even with a calm loop', () => {
  const verdict = judgeClient([{ delayP50Ms: 0.1, delayP99Ms: 1, delayMaxMs: 2, cpuSeconds: 0.95, wallSeconds: 1 }]);
  assert.equal(verdict.saturated, true);
});

test('the verdict says how --realtime went, and nothing when it was not asked for', () => {
  const loop = { delayP50Ms: 0.1, delayP99Ms: 0.5, delayMaxMs: 2, cpuSeconds: 0.3, wallSeconds: 1 };
  assert.doesNotMatch(judgeClient([loop]).line, /SCHED_FIFO|realtime/);
  assert.match(judgeClient([{ ...loop, realtime: { granted: true } }, { ...loop, realtime: { granted: true } }]).line, /loops\), under SCHED_FIFO$/);
  const refused = judgeClient([
    { ...loop, realtime: { granted: true } },
    { ...loop, realtime: { granted: false, reason: 'Operation not permitted (needs root or CAP_SYS_NICE)' } },
  ]);
  assert.match(refused.line, /; --realtime refused, normal priority: Operation not permitted \(needs root or CAP_SYS_NICE\)$/);
});

test('a saturated loop at normal priority is told to run under --realtime; one already under it, to spread the load', () => {
  const busy = { delayP50Ms: 20, delayP99Ms: 40, delayMaxMs: 60, cpuSeconds: 0.95, wallSeconds: 1 };
  assert.match(judgeClient([busy]).line, /its latencies include client delay — use --realtime \(root or CAP_SYS_NICE\), more --workers or fewer streams$/);
  assert.match(judgeClient([{ ...busy, realtime: { granted: false, reason: 'EPERM' } }]).line, /— use --realtime \(root or CAP_SYS_NICE\), more --workers/);
  assert.match(judgeClient([{ ...busy, realtime: { granted: true } }]).line, /, under SCHED_FIFO; its latencies include client delay — use more --workers or fewer streams$/);
});
