/**
 * The exact merge of a sharded run (pure): every shard's raw per-request outputs, each request
 * index exactly once, in index order; the result block is then computed from them by the same code
 * as one process's run, so percentiles are exact, never sketched. A request sent twice, or missing
 * without a stop signal to explain it, is refused: a partial run is never passed off as whole.
 */
import { UserError } from '../../core/errors.js';
import type { RequestOutput } from '../types.js';
import { shardOfRequest } from './split.js';

/** One sent request as a shard reports it: its index in the run's request list and its outputs (one per turn). */
export interface ShardItem {
  index: number;
  outputs: RequestOutput[];
}

export interface ShardItems {
  rank: number;
  items: readonly ShardItem[];
}

export class ShardMergeError extends UserError {
  override readonly code = 'E_SHARD_MERGE';
}

/** "4, 8, 12" or "4, 8, 12, ... (40 in all)". */
function indexList(indices: readonly number[]): string {
  const shown = indices.slice(0, 8).join(', ');
  return indices.length > 8 ? `${shown}, ... (${indices.length} in all)` : shown;
}

/**
 * The sent requests of `shards` (of `shardCount`) in index order. `requestCount`: the run's request
 * list; `stopped`: a stop signal ended the run, so requests no shard sent are not sent, not lost.
 */
export function mergeShardItems(requestCount: number, shardCount: number, shards: readonly ShardItems[], stopped: boolean): ShardItem[] {
  const byIndex: Array<ShardItem | undefined> = new Array(requestCount);
  const from = new Map<number, number>();
  for (const { rank, items } of shards) {
    for (const item of items) {
      const { index } = item;
      if (!Number.isSafeInteger(index) || index < 0 || index >= requestCount) {
        throw new ShardMergeError(`shard ${rank} reported request ${index}, which the run's ${requestCount} requests do not have: every shard must run the same bench flags`);
      }
      const owner = shardOfRequest(index, shardCount);
      if (owner !== rank) throw new ShardMergeError(`shard ${rank} reported request ${index}, which is shard ${owner}'s: refusing to merge a request sent by the wrong shard`);
      if (byIndex[index] !== undefined) {
        throw new ShardMergeError(`request ${index} was reported twice (by shard ${from.get(index)} and shard ${rank}): refusing to count it twice`);
      }
      byIndex[index] = item;
      from.set(index, rank);
    }
  }
  const missing: number[] = [];
  const merged: ShardItem[] = [];
  for (let index = 0; index < requestCount; index++) {
    const item = byIndex[index];
    if (item === undefined) missing.push(index);
    else merged.push(item);
  }
  if (missing.length > 0 && !stopped) {
    throw new ShardMergeError(`requests ${indexList(missing)} were reported by no shard: refusing to merge an incomplete run as whole`);
  }
  return merged;
}
