import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLoopHealthMonitor } from './monitor.js';
import { judgeClient } from './verdict.js';

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Deliberately blocks the event loop.
  }
}

test('an idle loop gets a clean verdict', async () => {
  const monitor = startLoopHealthMonitor();
  await sleep(150);
  const verdict = judgeClient([monitor.stop()]);
  assert.equal(verdict.saturated, false);
  assert.match(verdict.line, /^Client self-check: timing error <= \d+\.\d\d ms/);
  assert.ok(verdict.timingErrorBoundMs < 10);
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

test('the worst loop sets the bound when several workers report', () => {
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
