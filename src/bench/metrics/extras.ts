/**
 * servebench's figures beyond bench_serving's: failures by cause, requests resent after a
 * server closed a keep-alive connection, client queueing behind `--max-concurrency`, the rate at
 * which requests were actually sent, the true peaks (true-peaks.ts) and time to the first
 * reasoning token.
 */
import { mean, median, percentile } from '../../core/stats.js';
import { peakInFlight, peakTokensInWindow } from './true-peaks.js';
import type { FailureCause, RequestOutput } from '../types.js';
import type { ExtrasInput, QueueTimeStats, ReasoningTtftStats, ServebenchExtras } from './types.js';

/** Report order of failure causes (a Record so a new cause cannot be forgotten here). */
const CAUSE_ORDER: Record<FailureCause, number> = {
  http_429: 0,
  http_4xx: 1,
  http_5xx: 2,
  http_other: 3,
  empty_response: 4,
  connection: 5,
  reset: 6,
  malformed_chunk: 7,
  stalled: 8,
  timeout: 9,
  aborted: 10,
  other: 11,
};

function countFailures(outputs: readonly RequestOutput[]): Partial<Record<FailureCause, number>> {
  const counts = new Map<FailureCause, number>();
  for (const output of outputs) {
    if (output.success) continue;
    const cause = output.failureCause ?? 'other';
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  const ordered = [...counts].sort(([a], [b]) => CAUSE_ORDER[a] - CAUSE_ORDER[b]);
  return Object.fromEntries(ordered);
}

function queueTimeStats(outputs: readonly RequestOutput[]): QueueTimeStats | null {
  if (outputs.length === 0) return null;
  const waits = outputs.map((output) => output.queueTime);
  return { meanMs: mean(waits) * 1000, p99Ms: percentile(waits, 99) * 1000 };
}

/**
 * Requests sent per second of the measured window (bench_serving's duration, from the first
 * release to the end of the last request), failed ones included; outputs never started
 * (`startTime` 0) are left out. Not the schedule's release rate: at `--request-rate inf` every
 * request is released at once, however long it then waits for a slot. Null for an empty window.
 */
export function achievedRequestRate(outputs: readonly RequestOutput[], durationS: number): number | null {
  const sent = outputs.filter((output) => output.startTime !== 0).length;
  return sent > 0 && durationS > 0 ? sent / durationS : null;
}

function reasoningTtftStats(outputs: readonly RequestOutput[]): ReasoningTtftStats | null {
  const ttfts = outputs
    .filter((output) => output.success && output.firstReasoningTtft !== undefined)
    .map((output) => output.firstReasoningTtft as number);
  if (ttfts.length === 0) return null;
  return {
    count: ttfts.length,
    meanMs: mean(ttfts) * 1000,
    medianMs: median(ttfts) * 1000,
    p99Ms: percentile(ttfts, 99) * 1000,
  };
}

/** Computes servebench's extra figures of a run. */
export function calculateExtras(input: ExtrasInput): ServebenchExtras {
  const { outputs } = input;
  return {
    failed: outputs.filter((output) => !output.success).length,
    failuresByCause: countFailures(outputs),
    resentRequests: outputs.filter((output) => output.resent === true).length,
    queueTime: input.maxConcurrency ? queueTimeStats(outputs) : null,
    requestedRate: input.requestRate,
    achievedRate: achievedRequestRate(outputs, input.durationS),
    peakInFlight: peakInFlight(outputs),
    peakOutputTokensPerS: peakTokensInWindow(outputs),
    reasoningTtft: reasoningTtftStats(outputs),
  };
}
