/**
 * The self-check sample of one load-generating thread: the lead's event-loop monitor, with the
 * CPU figure replaced by this thread's own (see thread-cpu.ts), so that N workers each report what
 * their loop did rather than N copies of the whole process.
 */
import { startLoopHealthMonitor } from '../selfcheck/monitor.js';
import type { LoopHealthMonitor } from '../selfcheck/monitor.js';
import type { LoopHealthSample } from '../selfcheck/verdict.js';
import { threadCpuClock } from './thread-cpu.js';

/** Starts sampling this thread's loop delay and CPU now. */
export function startThreadHealthMonitor(): LoopHealthMonitor {
  const cpuNow = threadCpuClock();
  const cpuStart = cpuNow();
  const loop = startLoopHealthMonitor();
  return {
    stop(): LoopHealthSample {
      const sample = loop.stop();
      return { ...sample, cpuSeconds: cpuNow() - cpuStart };
    },
  };
}
