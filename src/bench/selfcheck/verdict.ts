/**
 * The client's verdict on its own timing accuracy (pure).
 *
 * Every timestamp is taken at the top of a socket data callback, so a callback that runs late
 * because the event loop was busy stamps the event late by that much: the event-loop delay is the
 * bound on the client's timing error. CPU near one full core means the loop is saturated and the
 * delay (hence the error) grows with load rather than with the server.
 */

/** What one event loop (main thread or a worker) observed during the measured window. */
export interface LoopHealthSample {
  /** Event-loop delay percentiles in milliseconds (from `monitorEventLoopDelay`). */
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** CPU seconds (user + system) this thread's process spent during the window. */
  cpuSeconds: number;
  /** Wall seconds of the window. */
  wallSeconds: number;
  /** How the loop was scheduled when `--realtime` asked for SCHED_FIFO; absent when nobody asked. */
  realtime?: RealtimeOutcome;
}

/** SCHED_FIFO granted for the window, or refused (with why) so the loop kept normal priority. */
export type RealtimeOutcome = { granted: true } | { granted: false; reason: string };

export interface ClientVerdict {
  /** Bound on the timing error of a typical event (p99 event-loop delay over all loops), ms. */
  timingErrorBoundMs: number;
  /** Worst single stall seen, ms. */
  worstStallMs: number;
  /** Busiest loop's CPU as a fraction of one core. */
  cpuFraction: number;
  saturated: boolean;
  /** One line for the console, printed after the result block. */
  line: string;
}

/** A loop busier than this, or stalling longer than this p99, no longer times events faithfully. */
export const SATURATION_CPU_FRACTION = 0.9;
export const SATURATION_DELAY_P99_MS = 10;

/**
 * Combines the samples of every load-generating loop into one verdict: the error bound is the
 * worst loop's p99 delay, since a merged distribution is only as good as its worst contributor.
 */
export function judgeClient(samples: readonly LoopHealthSample[]): ClientVerdict {
  if (samples.length === 0) {
    return { timingErrorBoundMs: 0, worstStallMs: 0, cpuFraction: 0, saturated: false, line: 'Client self-check: no samples' };
  }
  const timingErrorBoundMs = Math.max(...samples.map((s) => s.delayP99Ms));
  const worstStallMs = Math.max(...samples.map((s) => s.delayMaxMs));
  const cpuFraction = Math.max(...samples.map((s) => (s.wallSeconds > 0 ? s.cpuSeconds / s.wallSeconds : 0)));
  const saturated = cpuFraction >= SATURATION_CPU_FRACTION || timingErrorBoundMs >= SATURATION_DELAY_P99_MS;
  const figures =
    `timing error <= ${timingErrorBoundMs.toFixed(2)} ms at p99 (worst stall ${worstStallMs.toFixed(1)} ms), ` +
    `client CPU ${(cpuFraction * 100).toFixed(0)}% of a core` +
    (samples.length > 1 ? ` (busiest of ${samples.length} loops)` : '') +
    realtimeNote(samples);
  const line = saturated
    ? `WARNING client saturated: ${figures}; its latencies include client delay — use more --workers or fewer streams`
    : `Client self-check: ${figures}`;
  return { timingErrorBoundMs, worstStallMs, cpuFraction, saturated, line };
}

/** How `--realtime` went, for the verdict line; empty when it was not asked for. */
function realtimeNote(samples: readonly LoopHealthSample[]): string {
  const outcomes = samples.flatMap((sample) => (sample.realtime ? [sample.realtime] : []));
  if (outcomes.length === 0) return '';
  const refused = outcomes.find((outcome): outcome is Extract<RealtimeOutcome, { granted: false }> => !outcome.granted);
  return refused ? `; --realtime refused, normal priority: ${refused.reason}` : ', under SCHED_FIFO';
}
