/**
 * The idle thread of bench/client-accuracy.ts, run as a worker in the client's process. It does
 * nothing but measure its own event-loop delay over the measured window: whatever delay it sees,
 * the client would have seen doing nothing, the floor under the client's timing error. Its 1 ms
 * timer costs a few % of a core on the 2-core box; that CPU belongs to the instrument, so it
 * reports it (from /proc/thread-self/stat) and the script takes it out of the client's.
 *
 * Messages: 'open' starts the window; 'close' ends it and is answered with an IdleCanaryReport.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { parseStatCpuTimes } from '../src/bench/workers/thread-cpu.js';

export interface IdleCanaryReport {
  /** Loop delay beyond the timer's own 1 ms period, ms. */
  p99: number;
  max: number;
  /** This thread's CPU over the window; null where /proc is missing. */
  cpu: { userSeconds: number; systemSeconds: number } | null;
}

function cpuNow(): { userSeconds: number; systemSeconds: number } | null {
  try {
    return parseStatCpuTimes(readFileSync('/proc/thread-self/stat', 'utf8'));
  } catch {
    return null;
  }
}

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
let cpuAtOpen = cpuNow();
const delayMs = (ns: number): number => Math.max(0, ns / 1e6 - 1);

parentPort!.on('message', (message: 'open' | 'close') => {
  if (message === 'open') {
    histogram.reset();
    cpuAtOpen = cpuNow();
    return;
  }
  histogram.disable();
  const cpuAtClose = cpuNow();
  const report: IdleCanaryReport = {
    p99: delayMs(histogram.percentile(99)),
    max: delayMs(histogram.max),
    cpu:
      cpuAtOpen && cpuAtClose
        ? { userSeconds: cpuAtClose.userSeconds - cpuAtOpen.userSeconds, systemSeconds: cpuAtClose.systemSeconds - cpuAtOpen.systemSeconds }
        : null,
  };
  parentPort!.postMessage(report);
  parentPort!.close();
});
