/**
 * The per-shard section of a sharded run (pure): what each shard sent, how late it sent, how well
 * its clock is known and what its own self-check said, for the console, the JSONL record and the
 * catalog. A shard's saturated client is named here, and the merged self-check already counts its
 * loops, so the run is suspect as one process's would be.
 */
import { PyFloat } from '../../core/pyformat.js';
import type { PyValue } from '../../core/pyrepr.js';
import { percentile } from '../../core/stats.js';
import { BLOCK_WIDTH, sectionHeader, textLine } from '../output/block.js';
import { judgeClient, requestBoundsOf, type LoopHealthSample } from '../selfcheck/verdict.js';
import type { RequestOutput } from '../types.js';
import type { ClockOffset } from './clock.js';

export interface ShardSummary {
  /** 1..K. */
  rank: number;
  host: string;
  pid: number;
  /** Requests it sent (each turn of a conversation counts). */
  requests: number;
  /** Its slice of `--max-concurrency` (null: no limit). */
  maxConcurrency: number | null;
  /** p99 of each request's bytes out minus its due time, ms; null when it sent none. */
  sendLagP99Ms: number | null;
  /** Its host clock minus the coordinator's, ms, within ± the bound. */
  clockOffsetMs: number;
  clockOffsetBoundMs: number;
  /** Its client self-check line, and whether that found it saturated. */
  selfCheck: string;
  saturated: boolean;
}

/** A shard's summary from its requests' outputs and its loops' health (both in the server's time) and its clock offset. */
export function shardSummary(shard: {
  rank: number;
  host: string;
  pid: number;
  maxConcurrency: number | null;
  offset: ClockOffset;
  outputs: readonly RequestOutput[];
  loopHealth: readonly LoopHealthSample[];
}): ShardSummary {
  const verdict = judgeClient(shard.loopHealth, requestBoundsOf(shard.outputs));
  const lags = shard.outputs.flatMap((output) => (output.sendPhases === undefined ? [] : [(output.sendPhases.wait + output.sendPhases.connect + output.sendPhases.write) * 1000]));
  return {
    rank: shard.rank,
    host: shard.host,
    pid: shard.pid,
    requests: shard.outputs.length,
    maxConcurrency: shard.maxConcurrency,
    sendLagP99Ms: lags.length === 0 ? null : percentile(lags, 99),
    clockOffsetMs: shard.offset.offsetS * 1000,
    clockOffsetBoundMs: shard.offset.boundS * 1000,
    selfCheck: verdict.line,
    saturated: verdict.saturated,
  };
}

const ms = (value: number): string => value.toFixed(2);
const signedMs = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;

/** The console section, printed after the client's self-check. */
export function formatShardSection(shards: readonly ShardSummary[]): string {
  const worstBound = Math.max(...shards.map((shard) => shard.clockOffsetBoundMs));
  const saturated = shards.filter((shard) => shard.saturated).map((shard) => shard.rank);
  const lines = [
    sectionHeader('servebench shards', '-'),
    textLine('Shards:', shards.length),
    textLine('Max clock offset bound (ms):', ms(worstBound)),
    textLine('Saturated shards:', saturated.length === 0 ? 'none' : saturated.join(', ')),
  ];
  lines.push(...shardLines(shards), '='.repeat(BLOCK_WIDTH));
  return `${lines.join('\n')}\n`;
}

/** Two lines per shard: what it sent, how late, its clock's offset; then its own self-check (the console's and the catalog's `show`). */
export function shardLines(shards: readonly ShardSummary[]): string[] {
  return shards.flatMap((shard) => {
    const limit = shard.maxConcurrency === null ? '' : `, concurrency ${shard.maxConcurrency}`;
    const lag = shard.sendLagP99Ms === null ? '-' : `${ms(shard.sendLagP99Ms)} ms`;
    return [
      `shard ${shard.rank} (${shard.host}, pid ${shard.pid}): ${shard.requests} requests${limit}, send lag p99 ${lag}, clock offset ${signedMs(shard.clockOffsetMs)} ± ${ms(shard.clockOffsetBoundMs)} ms`,
      `  ${shard.selfCheck}`,
    ];
  });
}

/** `servebench.shards` of the JSONL record. */
export function shardRecordKey(shards: readonly ShardSummary[]): PyValue {
  return shards.map((shard) => ({
    rank: shard.rank,
    host: shard.host,
    pid: shard.pid,
    requests: shard.requests,
    max_concurrency: shard.maxConcurrency,
    send_lag_p99_ms: shard.sendLagP99Ms === null ? null : new PyFloat(shard.sendLagP99Ms),
    clock_offset_ms: new PyFloat(shard.clockOffsetMs),
    clock_offset_bound_ms: new PyFloat(shard.clockOffsetBoundMs),
    client_self_check: shard.selfCheck,
    saturated: shard.saturated,
  }));
}
