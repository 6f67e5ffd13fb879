import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currentThreadId, threadSchedulingPolicy } from '../../core/thread-scheduling.js';
import { startThreadHealthMonitor } from './thread-health.js';

const policyNow = (): string | null => threadSchedulingPolicy(process.pid, currentThreadId()!);

test('--realtime holds SCHED_FIFO for exactly the sampled window, or says why it could not', { skip: process.platform !== 'linux' }, () => {
  assert.equal(policyNow(), 'SCHED_OTHER');
  const monitor = startThreadHealthMonitor({ realtime: true });
  const during = policyNow();
  const sample = monitor.stop();
  assert.ok(sample.realtime, 'the sample records the outcome');
  if (sample.realtime.granted) assert.equal(during, 'SCHED_FIFO');
  else {
    assert.equal(during, 'SCHED_OTHER');
    assert.match(sample.realtime.reason, /CAP_SYS_NICE|chrt/);
  }
  // Back to normal afterwards, so nothing after the run preempts the machine.
  assert.equal(policyNow(), 'SCHED_OTHER');
});

test('without --realtime the thread keeps its policy and the sample has no outcome', { skip: process.platform !== 'linux' }, () => {
  const monitor = startThreadHealthMonitor();
  assert.equal(policyNow(), 'SCHED_OTHER');
  assert.equal(monitor.stop().realtime, undefined);
});
