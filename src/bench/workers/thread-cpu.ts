/**
 * CPU time of the calling thread alone. `process.cpuUsage()` counts every thread of the process,
 * so in a worker it would report its siblings' work as its own and flag a calm worker as saturated.
 * Node 20 has no per-thread API; Linux exposes the thread's counters in /proc/thread-self/stat.
 */
import { readFileSync } from 'node:fs';
import { statFieldsAfterName } from '../../core/proc-stat.js';

/** USER_HZ: the unit of utime/stime in /proc stat files on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime and stime in seconds from the text of a /proc/.../stat file. */
export function parseStatCpuTimes(stat: string): { userSeconds: number; systemSeconds: number } {
  const afterName = statFieldsAfterName(stat);
  // Field 3 (state) is afterName[0]; utime and stime are fields 14 and 15.
  const utime = Number(afterName[11]);
  const stime = Number(afterName[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`unreadable stat line: ${stat.slice(0, 80)}`);
  return { userSeconds: utime / CLOCK_TICKS_PER_SECOND, systemSeconds: stime / CLOCK_TICKS_PER_SECOND };
}

/** utime + stime in seconds from the text of a /proc/.../stat file. */
export function parseStatCpuSeconds(stat: string): number {
  const { userSeconds, systemSeconds } = parseStatCpuTimes(stat);
  return userSeconds + systemSeconds;
}

/**
 * A reader of this thread's CPU seconds: per-thread on Linux (10 ms resolution); elsewhere the
 * whole process's, an upper bound that can only make the self-check more cautious.
 */
export function threadCpuClock(): () => number {
  try {
    parseStatCpuSeconds(readFileSync('/proc/thread-self/stat', 'utf8'));
    return () => parseStatCpuSeconds(readFileSync('/proc/thread-self/stat', 'utf8'));
  } catch {
    return () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1e6;
    };
  }
}
