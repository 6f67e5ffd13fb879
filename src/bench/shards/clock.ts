/**
 * The clocks of a sharded run. Latencies are measured and kept on each shard's own run clock and
 * never cross hosts; only instants do (the start instant, each request's send time, each shard's
 * end), through each shard's clock offset from the coordinator, measured NTP-style: the coordinator
 * stamps a probe out and its answer back, the shard stamps its answer, and of several probes the
 * one with the least round trip gives the offset, within half that round trip.
 */
import { performance } from 'node:perf_hooks';
import { UserError } from '../../core/errors.js';
import { nowSeconds } from '../transport/clock.js';

/**
 * A host's clock in seconds: the wall clock at the process's start carried on by the monotonic
 * clock, so two hosts' readings differ by their wall clocks' offset and never jump. `skewSeconds`
 * is added to model a host whose wall clock is off (SERVEBENCH_SHARD_CLOCK_SKEW_S, for tests).
 */
export function hostClockSeconds(skewSeconds = 0): number {
  return runToHostSeconds(skewSeconds) + nowSeconds();
}

/** What turns this process's run clock (transport/clock.ts) into its host clock: host = run + this. */
export function runToHostSeconds(skewSeconds = 0): number {
  return performance.timeOrigin / 1000 + skewSeconds;
}

/** One probe: the coordinator's host clock when it left and when the answer came, the shard's in between. */
export interface ClockProbe {
  sentAt: number;
  shardAt: number;
  receivedAt: number;
}

/** A shard's host clock minus the coordinator's, within ± `boundS` (seconds). */
export interface ClockOffset {
  offsetS: number;
  boundS: number;
  /** Probes the estimate was chosen from. */
  probes: number;
}

/**
 * The offset from the probe with the least round trip: the shard stamped its answer somewhere in
 * that round trip, so the offset taken at its middle is off by at most half of it.
 */
export function offsetFromProbes(probes: readonly ClockProbe[]): ClockOffset {
  if (probes.length === 0) throw new Error('offsetFromProbes: no probes');
  let best = probes[0]!;
  for (const probe of probes) if (probe.receivedAt - probe.sentAt < best.receivedAt - best.sentAt) best = probe;
  const roundTrip = best.receivedAt - best.sentAt;
  return { offsetS: best.shardAt - (best.sentAt + best.receivedAt) / 2, boundS: roundTrip / 2, probes: probes.length };
}

/** The skew a test injects into a shard's host clock (seconds), from SERVEBENCH_SHARD_CLOCK_SKEW_S; 0 when unset. */
export function injectedSkewSeconds(env: NodeJS.ProcessEnv): number {
  const text = env.SERVEBENCH_SHARD_CLOCK_SKEW_S;
  if (text === undefined || text === '') return 0;
  const skew = Number(text);
  if (!Number.isFinite(skew)) throw new UserError(`SERVEBENCH_SHARD_CLOCK_SKEW_S='${text}' is not a number of seconds: unset it or give one such as 2.5`);
  return skew;
}
