/**
 * A client's timings against the wire's (pure): for every request the client measured and the
 * capture saw (paired by `rid`), its TTFT and each token event's time since the request was sent,
 * client minus wire. Positive errors are late stamps; a negative one is a client that reports a
 * token before the kernel carried it. Where the client states a bound for a request (servebench's
 * self-check), every event's error is checked against it.
 */
import { mean, median, percentile } from '../../src/core/stats.js';
import type { WireRequest } from './requests.js';

/** One request as a client measured it (ms). */
export interface ClientTiming {
  rid: string;
  ttftMs: number;
  /** The gaps between its token events, one per event after the first. */
  itlMs: number[];
  /** The most by which the client says this request's stamps can be late; absent when it says nothing. */
  statedBoundMs?: number;
}

/** One paired request against the wire (ms): client − wire per figure. */
export interface RequestAgainstWire {
  rid: string;
  clientTtftMs: number;
  wireTtftMs: number;
  /** The largest and the smallest error of its token events. */
  worstLateMs: number;
  worstEarlyMs: number;
  statedBoundMs: number | null;
}

export interface WireComparison {
  /** Every paired request, in the client's order. */
  requests: RequestAgainstWire[];
  /** Requests the client measured that the capture saw with as many token events. */
  paired: number;
  /** Requests the capture did not see, or saw with another count of token events. */
  unpaired: number;
  meanTtft: { client: number; wire: number };
  p99Itl: { client: number; wire: number };
  medianItl: { client: number; wire: number };
  /** The largest event error of any request (ms): client − wire. */
  worstLateMs: number;
  /** The most negative event error (ms): a token reported before the wire carried it, when below zero. */
  worstEarlyMs: number;
  /** Requests with a stated bound whose worst event error exceeded it, and by how much at most (ms). */
  beyondBound: number;
  worstExcessMs: number;
}

/** Clocks are read to the µs on both sides, and the request's start is stamped right after its write. */
const STAMP_SLACK_MS = 0.1;

/** The client's and the wire's times of each token event since the request left (ms). */
function eventTimes(timing: ClientTiming, wire: WireRequest): { client: number[]; wire: number[] } {
  const client = [timing.ttftMs];
  for (const gap of timing.itlMs) client.push(client.at(-1)! + gap);
  return { client, wire: wire.eventMs.map((at) => at - wire.postMs) };
}

export function compareWithWire(timings: readonly ClientTiming[], wire: ReadonlyMap<string, WireRequest>): WireComparison {
  const clientTtfts: number[] = [];
  const wireTtfts: number[] = [];
  const clientGaps: number[] = [];
  const wireGaps: number[] = [];
  let worstLateMs = -Infinity;
  let worstEarlyMs = Infinity;
  let beyondBound = 0;
  let worstExcessMs = -Infinity;
  let unpaired = 0;
  const requests: RequestAgainstWire[] = [];
  for (const timing of timings) {
    const seen = wire.get(timing.rid);
    if (!seen || seen.eventMs.length !== timing.itlMs.length + 1) {
      unpaired++;
      continue;
    }
    const times = eventTimes(timing, seen);
    clientTtfts.push(times.client[0]!);
    wireTtfts.push(times.wire[0]!);
    clientGaps.push(...timing.itlMs);
    for (let k = 1; k < times.wire.length; k++) wireGaps.push(times.wire[k]! - times.wire[k - 1]!);
    const errors = times.client.map((at, k) => at - times.wire[k]!);
    const late = Math.max(...errors);
    const early = Math.min(...errors);
    worstLateMs = Math.max(worstLateMs, late);
    worstEarlyMs = Math.min(worstEarlyMs, early);
    requests.push({ rid: timing.rid, clientTtftMs: times.client[0]!, wireTtftMs: times.wire[0]!, worstLateMs: late, worstEarlyMs: early, statedBoundMs: timing.statedBoundMs ?? null });
    if (timing.statedBoundMs !== undefined) {
      const excess = Math.max(late, -early) - timing.statedBoundMs;
      worstExcessMs = Math.max(worstExcessMs, excess);
      if (excess > STAMP_SLACK_MS) beyondBound++;
    }
  }
  return {
    requests,
    paired: clientTtfts.length,
    unpaired,
    meanTtft: { client: mean(clientTtfts), wire: mean(wireTtfts) },
    p99Itl: { client: percentile(clientGaps, 99), wire: percentile(wireGaps, 99) },
    medianItl: { client: median(clientGaps), wire: median(wireGaps) },
    worstLateMs,
    worstEarlyMs,
    beyondBound,
    worstExcessMs,
  };
}
