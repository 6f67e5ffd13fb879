/**
 * The self-check sample of one load-generating thread: the lead's event-loop monitor, with the
 * CPU figure replaced by this thread's own (see thread-cpu.ts), so that N workers each report what
 * their loop did rather than N copies of the whole process. With `realtime` the thread runs under
 * SCHED_FIFO for exactly the sampled window (`--realtime`), and the sample says whether it did.
 */
import { makeCurrentThreadNormal, makeCurrentThreadRealtime } from '../../core/thread-scheduling.js';
import { startLoopHealthMonitor, type LoopHealthMonitor } from '../selfcheck/monitor.js';
import type { LoopHealthSample, RealtimeOutcome } from '../selfcheck/verdict.js';
import { threadCpuClock } from './thread-cpu.js';

/** Starts sampling this thread's loop delay and CPU now; `realtime` also raises it to SCHED_FIFO until stop(). */
export function startThreadHealthMonitor(options: { realtime?: boolean } = {}): LoopHealthMonitor {
  let realtime: RealtimeOutcome | undefined;
  if (options.realtime === true) {
    const refusal = makeCurrentThreadRealtime();
    realtime = refusal === null ? { granted: true } : { granted: false, reason: refusal };
  }
  const cpuNow = threadCpuClock();
  const cpuStart = cpuNow();
  const loop = startLoopHealthMonitor();
  let stopped = false;
  return {
    stop(): LoopHealthSample {
      const sample = loop.stop();
      const cpuSeconds = cpuNow() - cpuStart;
      // A thread left under SCHED_FIFO would keep preempting everything after the run.
      if (realtime?.granted === true && !stopped) makeCurrentThreadNormal();
      stopped = true;
      return realtime ? { ...sample, cpuSeconds, realtime } : { ...sample, cpuSeconds };
    },
  };
}
