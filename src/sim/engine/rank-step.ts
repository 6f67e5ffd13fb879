/**
 * What one scheduler rank's batch was and did in one engine step, as pure data. SGLang's scheduler
 * logs its `Prefill batch` / `Decode batch` lines from these figures; the sim server does the same
 * (sim/server/scheduler-log.ts), while `predict` and the embedded sim never ask for them.
 */

/** The extend part of a rank's batch, counted when the batch was formed (when SGLang logs it). */
export interface PrefillBatchStats {
  /** Requests extended: newly admitted ones and the chunked one continuing (`#new-seq`). */
  requests: number;
  /** Prompt tokens computed (`#new-token`). */
  newTokens: number;
  /** Prompt tokens the newly admitted requests found in the prefix cache (`#cached-token`). */
  cachedTokens: number;
  /** Requests decoding on the rank besides this batch (`#running-req`). */
  running: number;
  /** Requests left waiting once the batch was formed (`#queue-req`). */
  queued: number;
  /** KV slots in use before the batch took its own (`token usage` numerator). */
  kvTokens: number;
}

/** The decode part of a rank's batch, counted once its results were applied (when SGLang logs it). */
export interface DecodeBatchStats {
  /** Requests decoded (`#running-req` of the Decode line). */
  requests: number;
  /** Tokens they produced: one each, or the accepted run of a speculative verify. */
  tokens: number;
  /** Speculative verify passes among them (0 without speculative decoding). */
  verifies: number;
  /** Requests waiting after the step (`#queue-req`). */
  queued: number;
  /** KV slots in use after the step (`#token`). */
  kvTokens: number;
}

export interface RankStep {
  /** Engine seconds when the step ended and its results were applied. */
  time: number;
  /** The instance (index among the engine's instances: replicas, or prefill then decode instances). */
  instance: number;
  /** The DP-attention rank inside the instance (0 without DP attention). */
  rank: number;
  prefill: PrefillBatchStats | null;
  decode: DecodeBatchStats | null;
  /** The rank's KV pool, tokens (`token usage` denominator). */
  kvCapacity: number;
  /** The step ran as a captured CUDA graph. */
  cudaGraph: boolean;
}

/** Receives every rank's step that had work, in engine-time order. */
export type RankStepObserver = (step: RankStep) => void;
