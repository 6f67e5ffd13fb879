/**
 * The operating-system side of an event-loop thread whose timing matters (the sim's serving thread,
 * the bench client's load-generating threads): its Linux thread id, and a request to run it under
 * the real-time scheduler. On a machine shared by the server and the client, a normal-priority
 * thread that wakes for due work often waits for a core behind the other process and both
 * processes' helper threads; measured on the 2-core box, that wait set both the sim's lateness tail
 * and the client's p99 ITL error (docs/PERFORMANCE.md). Node has no scheduler API, so `chrt`
 * (util-linux) sets the policy.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { statFieldsAfterName } from './proc-stat.js';

/** SCHED_FIFO priority: above every normal thread, below the kernel's own real-time threads (50+). */
const REALTIME_PRIORITY = 10;

/** The calling thread's Linux thread id, or null off Linux. */
export function currentThreadId(): number | null {
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>".
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Puts the calling thread under SCHED_FIFO; returns null on success, else why it could not. */
export function makeCurrentThreadRealtime(): string | null {
  return setCurrentThreadPolicy(['--fifo', '--pid', String(REALTIME_PRIORITY)]);
}

/** Returns the calling thread to the normal scheduler (SCHED_OTHER); null on success, else why not. */
export function makeCurrentThreadNormal(): string | null {
  return setCurrentThreadPolicy(['--other', '--pid', '0']);
}

function setCurrentThreadPolicy(chrtArgs: string[]): string | null {
  const tid = currentThreadId();
  if (tid === null) return 'no /proc/thread-self (Linux only)';
  const result = spawnSync('chrt', [...chrtArgs, String(tid)], { encoding: 'utf8' });
  if (result.error !== undefined) return `cannot run chrt (${(result.error as NodeJS.ErrnoException).code ?? result.error.message}); install util-linux`;
  if (result.status !== 0) {
    const reason = result.stderr.trim().split('\n').pop() ?? `exit ${result.status}`;
    return `${reason} (needs root or CAP_SYS_NICE)`;
  }
  return null;
}

/** Linux scheduling policies by number (sched.h). */
const POLICY_NAMES = ['SCHED_OTHER', 'SCHED_FIFO', 'SCHED_RR', 'SCHED_BATCH', 'SCHED_ISO', 'SCHED_IDLE', 'SCHED_DEADLINE'];

/** The scheduling policy of thread `tid` of process `pid` (field 41 of its stat), or null where unreadable. */
export function threadSchedulingPolicy(pid: number, tid: number): string | null {
  try {
    const policy = Number(statFieldsAfterName(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'))[38]);
    return POLICY_NAMES[policy] ?? `policy ${policy}`;
  } catch {
    return null;
  }
}
