/**
 * Samples the current thread's event-loop delay and the process CPU during a measured window, and
 * beats this thread's heartbeat meanwhile, so that every read stamped in the window carries the
 * bound of its own lateness (heartbeat.ts).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loopHeartbeat } from './heartbeat.js';
import type { LoopHealthSample } from './verdict.js';

export interface LoopHealthMonitor {
  /** Ends the window and returns what it saw. */
  stop(): LoopHealthSample;
}

const NS_PER_MS = 1e6;

/** Starts sampling now; 1 ms resolution is the finest the histogram timer offers and costs ~nothing. */
export function startLoopHealthMonitor(): LoopHealthMonitor {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  loopHeartbeat.start();
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  return {
    stop(): LoopHealthSample {
      histogram.disable();
      loopHeartbeat.stop();
      const cpu = process.cpuUsage(cpuStart);
      const wallSeconds = (performance.now() - wallStart) / 1000;
      // The histogram counts the timer's own 1 ms period into each delay sample; subtract it.
      const delay = (ns: number): number => Math.max(0, ns / NS_PER_MS - 1);
      const sample: LoopHealthSample = {
        delayP50Ms: histogram.count > 0 ? delay(histogram.percentile(50)) : 0,
        delayP99Ms: histogram.count > 0 ? delay(histogram.percentile(99)) : 0,
        delayMaxMs: histogram.count > 0 ? delay(histogram.max) : 0,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        wallSeconds,
      };
      histogram.reset();
      return sample;
    },
  };
}
