/**
 * The client's verdict on its own timing accuracy (pure).
 *
 * Every read is stamped at the top of its socket callback, so a callback that runs late because
 * the event loop was busy, or its thread was not scheduled, stamps the read late by that much.
 * Each request carries the most by which any of its reads can have been stamped late (the
 * heartbeat's bound, heartbeat.ts); its start is stamped right after its write, so that is the
 * bound on its TTFT, ITL and latency error. The verdict states the bound that holds for the
 * requests of a calm loop, and names how many requests a stall delayed and by how much, so it is
 * never below the error of any request. CPU near one full core means the loop is saturated and
 * the error grows with load rather than with the server.
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
  /** Bound on the timing error of every request but `requestsOverBound` (ms); the loops' p99 delay when no request was timed. */
  timingErrorBoundMs: number;
  /** Requests whose reads came after a loop stall: their error may exceed the bound, up to `worstRequestBoundMs`. */
  requestsOverBound: number;
  /** The largest bound of any request (ms): the bound for every request. */
  worstRequestBoundMs: number;
  /** Requests that carry a bound (successful, stamped while the self-check ran). */
  requestsTimed: number;
  /** Worst single stall of any loop, ms. */
  worstStallMs: number;
  /** Busiest loop's CPU as a fraction of one core. */
  cpuFraction: number;
  saturated: boolean;
  /** One line for the console, printed after the result block. */
  line: string;
}

/** A loop busier than this, or a bound this large for the calm requests, no longer times events faithfully. */
const SATURATION_CPU_FRACTION = 0.9;
const SATURATION_BOUND_MS = 10;

/**
 * A request's bound counts as the stall's, not the calm loop's, when it exceeds the median bound
 * by more than this: a calm loop's bounds spread over about two heartbeat periods (1 ms timers
 * on libuv's millisecond clock).
 */
const STALL_MARGIN_MS = 2;

/** The median of sorted values. */
function medianOf(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The calm requests' bound and the stalled requests' count and bound, from every timed request's bound (ms). */
function splitBounds(boundsMs: readonly number[]): Pick<ClientVerdict, 'timingErrorBoundMs' | 'requestsOverBound' | 'worstRequestBoundMs'> {
  const sorted = [...boundsMs].sort((a, b) => a - b);
  const cutoff = medianOf(sorted) + STALL_MARGIN_MS;
  const worst = sorted[sorted.length - 1]!;
  let calm = sorted.length;
  while (sorted[calm - 1]! > cutoff) calm--;
  return { timingErrorBoundMs: sorted[calm - 1]!, requestsOverBound: sorted.length - calm, worstRequestBoundMs: worst };
}

/**
 * Combines the samples of every load-generating loop and the bound of every timed request (s)
 * into one verdict. Without timed requests the bound falls back to the worst loop's p99 delay.
 */
export function judgeClient(samples: readonly LoopHealthSample[], requestBounds: readonly number[] = []): ClientVerdict {
  if (samples.length === 0 && requestBounds.length === 0) {
    return {
      timingErrorBoundMs: 0,
      requestsOverBound: 0,
      worstRequestBoundMs: 0,
      requestsTimed: 0,
      worstStallMs: 0,
      cpuFraction: 0,
      saturated: false,
      line: 'Client self-check: no samples',
    };
  }
  const worstStallMs = Math.max(0, ...samples.map((s) => s.delayMaxMs));
  const cpuFraction = Math.max(0, ...samples.map((s) => (s.wallSeconds > 0 ? s.cpuSeconds / s.wallSeconds : 0)));
  const loopP99 = Math.max(0, ...samples.map((s) => s.delayP99Ms));
  const bounds =
    requestBounds.length > 0
      ? splitBounds(requestBounds.map((seconds) => seconds * 1000))
      : { timingErrorBoundMs: loopP99, requestsOverBound: 0, worstRequestBoundMs: loopP99 };
  const saturated = cpuFraction >= SATURATION_CPU_FRACTION || bounds.timingErrorBoundMs >= SATURATION_BOUND_MS;
  const figures =
    `${boundStatement(bounds, requestBounds.length)} (worst loop stall ${worstStallMs.toFixed(1)} ms), ` +
    `client CPU ${(cpuFraction * 100).toFixed(0)}% of a core` +
    (samples.length > 1 ? ` (busiest of ${samples.length} loops)` : '') +
    realtimeNote(samples);
  const line = saturated ? `WARNING client saturated: ${figures}; its latencies include client delay — ${saturationAdvice(samples)}` : `Client self-check: ${figures}`;
  return { ...bounds, requestsTimed: requestBounds.length, worstStallMs, cpuFraction, saturated, line };
}

/** The verdict's claim: one bound for every request, or the calm bound and the stalled requests' own. */
function boundStatement(bounds: ReturnType<typeof splitBounds>, timed: number): string {
  const bound = bounds.timingErrorBoundMs.toFixed(2);
  if (timed === 0) return `no request timed; event-loop delay <= ${bound} ms at p99`;
  if (bounds.requestsOverBound === 0) return `timing error <= ${bound} ms for every request`;
  const stalled = bounds.requestsOverBound;
  return (
    `timing error <= ${bound} ms for ${timed - stalled} of ${timed} requests; ` +
    `${stalled} read a token or the end after a loop stall and may be off by up to ${bounds.worstRequestBoundMs.toFixed(2)} ms`
  );
}

/**
 * What to change after a saturated run. A loop at normal priority that shares the machine with the
 * server waits for a core behind it: under SCHED_FIFO (`--realtime`) the wire referee measured
 * servebench within 3 ms of the wire at 512 to 8,192 streams (docs/PERFORMANCE.md).
 */
function saturationAdvice(samples: readonly LoopHealthSample[]): string {
  const realtime = samples.length > 0 && samples.every((sample) => sample.realtime?.granted === true);
  return realtime ? 'use more --workers or fewer streams' : 'use --realtime (root or CAP_SYS_NICE), more --workers or fewer streams';
}

/** How `--realtime` went, for the verdict line; empty when it was not asked for. */
function realtimeNote(samples: readonly LoopHealthSample[]): string {
  const outcomes = samples.flatMap((sample) => (sample.realtime ? [sample.realtime] : []));
  if (outcomes.length === 0) return '';
  const refused = outcomes.find((outcome): outcome is Extract<RealtimeOutcome, { granted: false }> => !outcome.granted);
  return refused ? `; --realtime refused, normal priority: ${refused.reason}` : ', under SCHED_FIFO';
}

/** The timing-error bound of each successful request that carries one (s): what {@link judgeClient} judges. */
export function requestBoundsOf(outputs: readonly { success: boolean; stampLatenessBound?: number }[]): number[] {
  const bounds: number[] = [];
  for (const output of outputs) if (output.success && output.stampLatenessBound !== undefined) bounds.push(output.stampLatenessBound);
  return bounds;
}
