/**
 * The static split of a one-machine run over K shards (pure). Every shard builds the same seeded
 * request list and the same absolute send times as one process would, then sends only its own:
 * request i belongs to shard (i mod K) + 1, so the union of the shards' traffic is the one-machine
 * traffic, Poisson arrivals included, and each shard's share is spread evenly over the run. In a
 * multi-turn run a request is a whole conversation, so conversations are never split.
 */
import { createHash } from 'node:crypto';
import { UserError } from '../../core/errors.js';

/** Rank 0 is the coordinator; ranks 1..K are the shards. */
export const COORDINATOR_RANK = 0;

/** The shard (1..K) that sends request `index`. */
export function shardOfRequest(index: number, shards: number): number {
  return (index % shards) + 1;
}

/** The requests of `schedule` that shard `rank` (1..K) sends. */
export function ownRequests<T extends { index: number }>(schedule: readonly T[], rank: number, shards: number): T[] {
  return schedule.filter((item) => shardOfRequest(item.index, shards) === rank);
}

/**
 * `--max-concurrency` divided among the shards: as even as whole slots allow, the first shards
 * taking one more; null (no limit) stays null for every shard. A shard left without a slot could
 * never send, so fewer slots than shards is refused.
 */
export function concurrencySlices(maxConcurrency: number | null, shards: number): Array<number | null> {
  if (maxConcurrency === null) return Array.from({ length: shards }, () => null);
  if (maxConcurrency < shards) {
    throw new UserError(`--max-concurrency ${maxConcurrency} cannot be divided among ${shards} shards (each needs a slot): use at most ${maxConcurrency} shards or raise --max-concurrency`);
  }
  const base = Math.floor(maxConcurrency / shards);
  const extra = maxConcurrency % shards;
  return Array.from({ length: shards }, (_, i) => base + (i < extra ? 1 : 0));
}

/** The operator's line about the split: which requests each shard sends and its concurrency slice. */
export function splitNotice(shards: number, requests: number, slices: ReadonlyArray<number | null>): string {
  const counts = Array.from({ length: shards }, (_, i) => Math.floor(requests / shards) + (i < requests % shards ? 1 : 0));
  const limit = slices[0] === null ? 'no --max-concurrency limit' : `--max-concurrency ${slices.reduce((sum, slice) => sum! + slice!, 0)} divided among them: ${slices.join(', ')} (each shard holds its own slice)`;
  return `servebench shards: ${shards} shards send request i from shard (i mod ${shards}) + 1 (${counts.join(', ')} requests); ${limit}`;
}

/** What identifies a request list: each request's index, send time, prompt and output lengths. */
export interface ScheduleEntry {
  index: number;
  sendAt: number;
  row: { promptLen: number; outputLen: number };
  loraName: string | null;
}

/**
 * A digest of the whole request list (before the split): the coordinator refuses a shard whose list
 * differs (another dataset file, tokenizer or seed), since its slice would not be the run's.
 */
export function scheduleFingerprint(schedule: readonly ScheduleEntry[]): string {
  const hash = createHash('sha256');
  for (const item of schedule) hash.update(`${item.index} ${item.sendAt} ${item.row.promptLen} ${item.row.outputLen} ${item.loraName ?? ''}\n`);
  return hash.digest('hex').slice(0, 16);
}
