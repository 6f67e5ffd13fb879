/**
 * The warm pool: connections opened before the measured phase, as many as requests can be in
 * flight at once, so that a burst (`--request-rate inf --max-concurrency C`) neither connects
 * inside its requests' TTFT nor overflows the server's accept queue (a dropped SYN is retried
 * after a second, which bench_serving then reports as TTFT). `--lazy-connect` opens none.
 */
import type { PrewarmOutcome } from '../transport/http-pool.js';
import type { ScheduledRequest } from './schedule.js';

/**
 * How many connections to open: `--max-concurrency` (at most one per request), else as many as
 * requests are due at the first instant (all of them at an infinite rate; with spread arrivals,
 * how many overlap depends on the server, and later connections open as requests need them).
 * None with `--lazy-connect`.
 */
export function warmPoolSize(schedule: readonly Pick<ScheduledRequest, 'sendAt'>[], maxConcurrency: number | null, lazyConnect: boolean): number {
  if (lazyConnect || schedule.length === 0) return 0;
  if (maxConcurrency !== null) return Math.min(maxConcurrency, schedule.length);
  const first = schedule[0]!.sendAt;
  return schedule.filter((item) => item.sendAt <= first).length;
}

/** The operator's notice when the warm pool stopped short; null when it opened in full. */
export function warmPoolNotice(wanted: number, outcome: PrewarmOutcome): string | null {
  if (outcome.error === null) return null;
  return (
    `warning: opened ${outcome.opened} of ${wanted} connections before the measured phase (${outcome.error.message}); ` +
    'the others open when requests need them'
  );
}
