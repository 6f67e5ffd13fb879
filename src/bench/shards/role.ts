/**
 * Which part of a sharded run this process plays (pure): `--shard-rank` when given, else the rank
 * a scheduler gives its tasks (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, SLURM's
 * SLURM_PROCID when SLURM_NTASKS is K + 1), else this host runs the coordinator and K shards.
 */
import { UsageError } from '../../core/errors.js';
import type { BenchExtensions } from '../args/types.js';
import { COORDINATOR_RANK } from './split.js';

export type ShardRole = { kind: 'local' } | { kind: 'coordinator'; address: string } | { kind: 'shard'; rank: number; address: string };

function wholeNumber(text: string | undefined): number | null {
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : null;
}

/** The rank from the flags or the environment, and where it came from; null when none is set. */
function rankOf(extensions: Pick<BenchExtensions, 'shards' | 'shardRank'>, env: NodeJS.ProcessEnv, shards: number): { rank: number; from: string } | null {
  if (extensions.shardRank !== null) return { rank: extensions.shardRank, from: '--shard-rank' };
  const indexed = env.JOB_COMPLETION_INDEX;
  if (indexed !== undefined && indexed !== '') {
    const rank = wholeNumber(indexed);
    if (rank === null) throw new UsageError(`JOB_COMPLETION_INDEX='${indexed}' is not a pod index: run the pods as an Indexed Job (completionMode: Indexed)`);
    return { rank, from: 'JOB_COMPLETION_INDEX' };
  }
  const procId = env.SLURM_PROCID;
  if (procId !== undefined && procId !== '') {
    const tasks = wholeNumber(env.SLURM_NTASKS);
    if (tasks !== shards + 1) {
      throw new UsageError(`SLURM_NTASKS=${env.SLURM_NTASKS ?? 'unset'} but --shards ${shards} needs ${shards + 1} tasks (a coordinator and ${shards} shards): srun -n ${shards + 1}, or give --shard-rank`);
    }
    const rank = wholeNumber(procId);
    if (rank === null) throw new UsageError(`SLURM_PROCID='${procId}' is not a task rank`);
    return { rank, from: 'SLURM_PROCID' };
  }
  return null;
}

/** This process's role; null for a run without `--shards`. */
export function resolveShardRole(extensions: Pick<BenchExtensions, 'shards' | 'shardRank' | 'coordinator'>, env: NodeJS.ProcessEnv): ShardRole | null {
  const { shards } = extensions;
  if (shards === null) {
    if (extensions.shardRank !== null) throw new UsageError('--shard-rank needs --shards K: give the run\'s shard count');
    if (extensions.coordinator !== null) throw new UsageError('--coordinator needs --shards K: give the run\'s shard count');
    return null;
  }
  const rank = rankOf(extensions, env, shards);
  if (rank === null) {
    if (extensions.coordinator !== null) throw new UsageError('--coordinator needs a rank (--shard-rank, JOB_COMPLETION_INDEX or SLURM_PROCID): without one this host runs the coordinator and every shard itself');
    return { kind: 'local' };
  }
  if (rank.rank > shards) throw new UsageError(`${rank.from} ${rank.rank} is beyond --shards ${shards}: ranks are 0 (the coordinator) to ${shards}`);
  if (extensions.coordinator === null) throw new UsageError(`${rank.from} makes this process rank ${rank.rank} of a sharded run: give --coordinator HOST:PORT, where rank 0 listens`);
  return rank.rank === COORDINATOR_RANK ? { kind: 'coordinator', address: extensions.coordinator } : { kind: 'shard', rank: rank.rank, address: extensions.coordinator };
}
