/**
 * What makes a measured run suspect, read from the figures servebench keeps with it: a client
 * self-check that warned (the client was saturated, so its latencies include its own delay), a sim
 * that fell behind its model, requests that failed. Each becomes one warning of the run, so `runs`,
 * `show` and the dashboard flag it wherever it is listed. Pure.
 */
import { SELF_CHECK_METRIC, SIM_SELF_CHECK_METRIC } from './ingest/jsonl.js';
import type { MetricValue, ShardRecord } from './types.js';

/** A self-check line that warns starts so (bench/selfcheck/verdict.ts, sim/truth/lateness-verdict.ts). */
const WARNING = /^WARNING\s+/;

/** The warnings a run's own figures give, in a fixed order; none for a clean run. A sharded run's saturated shards are named. */
export function suspectWarnings(metrics: Readonly<Record<string, MetricValue>>, shards: readonly ShardRecord[] | null = null): string[] {
  const warnings: string[] = [];
  for (const shard of shards ?? []) {
    if (shard.saturated) warnings.push(`shard ${shard.rank} of ${shards!.length} (${shard.host}) was saturated: ${shard.selfCheck.replace(WARNING, '')}`);
  }
  for (const key of [SELF_CHECK_METRIC, SIM_SELF_CHECK_METRIC]) {
    const line = metrics[key];
    if (typeof line === 'string' && WARNING.test(line)) warnings.push(line.replace(WARNING, ''));
  }
  const failed = metrics.failed;
  if (typeof failed === 'number' && failed > 0) {
    const completed = typeof metrics.completed === 'number' ? metrics.completed : 0;
    const causes = Object.entries(metrics)
      .filter(([key, count]) => key.startsWith('failed_') && typeof count === 'number' && count > 0)
      .map(([key, count]) => `${key.slice('failed_'.length)} ${count}`);
    warnings.push(`${failed} of ${failed + completed} requests failed${causes.length > 0 ? ` (${causes.join(', ')})` : ''}; the figures are of the ${completed} that completed`);
  }
  return warnings;
}
