/** A request's state inside the scheduler. */
import type { SimRequest } from '../types.js';
import type { UniformSource } from '../text/seeded-random.js';
import type { PrefixMatch } from './radix-cache.js';

export type LivePhase = 'frontend' | 'waiting' | 'running' | 'transfer' | 'finished' | 'aborted';

export interface LiveRequest {
  request: SimRequest;
  /** Instance (index into the engine's schedulers) and DP-attention rank holding the request. */
  instance: number;
  rank: number;
  phase: LivePhase;
  /** Tokens to prefill: the prompt, plus the output so far after a retraction. */
  inputTokens: number;
  /** Of `inputTokens`, how many are in KV (cache hit included). */
  prefilled: number;
  /** Prefix-cache hit of the current admission. */
  cachedTokens: number;
  /** Locked radix path while running. */
  prefix: PrefixMatch | null;
  /** KV slots this request owns (not shared with the cache). */
  ownedKv: number;
  generated: number;
  verifyCount: number;
  acceptRate: number;
  random: UniformSource;
  firstEmitted: boolean;
  /** Engine time it entered a scheduler's waiting queue (SGLang's `wait_queue_entry_time`); null before. */
  queuedAt: number | null;
  /** Seconds from entering the waiting queue to its first prefill batch (SGLang's queueing time); null until admitted. */
  queueTime: number | null;
}

/** A request as it enters the engine: at the front end, nothing prefilled, generated or cached yet. */
export function newLiveRequest(request: SimRequest, acceptRate: number, random: UniformSource): LiveRequest {
  return {
    request,
    instance: 0,
    rank: 0,
    phase: 'frontend',
    inputTokens: request.promptTokens,
    prefilled: 0,
    cachedTokens: 0,
    prefix: null,
    ownedKv: 0,
    generated: 0,
    verifyCount: 0,
    acceptRate,
    random,
    firstEmitted: false,
    queuedAt: null,
    queueTime: null,
  };
}

/** Output tokens the request still has to produce. */
export function remainingOutput(live: LiveRequest): number {
  return live.request.outputTokens - live.generated;
}
