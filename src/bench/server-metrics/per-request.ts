/**
 * The per-request side of the server's view: where each request's time to first token went, and
 * whether the client's token count agrees with the server's. Pure; times in the server's time
 * (the outputs after runner/time-scale.ts, the server's own figures as it reported them).
 */
import { mean } from '../../core/stats.js';
import type { RequestOutput } from '../types.js';

/**
 * Mean time from when a request was due to its first token, split: the client's queue (a
 * `--max-concurrency` slot, a connection, the write: everything before its bytes left), the
 * server's queue (its `queue_time`, where reported) and the rest of TTFT (network, prefill, the
 * first token's step). Over successful requests; `serverQueueMs` and the rest over those that
 * reported a queue time, null when none did.
 */
export interface TtftSplit {
  requests: number;
  clientQueueMs: number;
  /** Requests whose response reported `queue_time`. */
  serverQueueReported: number;
  serverQueueMs: number | null;
  /** TTFT less the server's queue, over the requests that reported it; TTFT itself when none did. */
  restMs: number;
}

/** The client's share: waiting for a slot, then the send phases up to the bytes leaving. */
function clientQueueSeconds(output: RequestOutput): number {
  const phases = output.sendPhases;
  return output.queueTime + (phases === undefined ? 0 : phases.wait + phases.connect + phases.write);
}

/** The split over the successful outputs, or null when none succeeded. */
export function ttftSplit(outputs: readonly RequestOutput[]): TtftSplit | null {
  const done = outputs.filter((o) => o.success);
  if (done.length === 0) return null;
  const reported = done.filter((o) => o.server?.queueTime !== undefined);
  const clientQueueMs = mean(done.map(clientQueueSeconds)) * 1000;
  if (reported.length === 0) {
    return { requests: done.length, clientQueueMs, serverQueueReported: 0, serverQueueMs: null, restMs: mean(done.map((o) => o.ttft)) * 1000 };
  }
  return {
    requests: done.length,
    clientQueueMs,
    serverQueueReported: reported.length,
    serverQueueMs: mean(reported.map((o) => o.server!.queueTime!)) * 1000,
    restMs: mean(reported.map((o) => o.ttft - o.server!.queueTime!)) * 1000,
  };
}

/** Successful requests whose response reported a completion-token count, and how many of those the client counted differently. */
export interface TokenCountCheck {
  checked: number;
  differing: number;
}

/**
 * Compares each successful request's retokenized output length (`retokenized[i]`, the client's
 * count) with the server's `completion_tokens`; null when no response reported one.
 */
export function tokenCountCheck(outputs: readonly RequestOutput[], retokenized: readonly number[]): TokenCountCheck | null {
  let checked = 0;
  let differing = 0;
  outputs.forEach((output, i) => {
    const server = output.server?.completionTokens;
    if (!output.success || server === undefined) return;
    checked++;
    if (retokenized[i] !== server) differing++;
  });
  return checked === 0 ? null : { checked, differing };
}
