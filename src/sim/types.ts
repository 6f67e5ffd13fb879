/**
 * Contracts of the simulated engine:
 * SGLang launch flags → LaunchConfig → (performance model + scheduler = Engine) → token emissions
 * → HTTP streams (`servebench sim`) or virtual-time metrics (`servebench predict`).
 */

/** One request as the engine sees it. Times are engine-clock seconds. */
export interface SimRequest {
  id: string;
  /** Prompt length in tokens. */
  promptTokens: number;
  /**
   * Prompt token ids, used by the radix prefix cache. Absent: the prompt shares no prefix with others.
   */
  promptTokenIds?: ArrayLike<number>;
  /** Output tokens the request will generate before finishing (≤ its max_new_tokens). */
  outputTokens: number;
  /** Why it finishes after `outputTokens`: `length` when it hit max_new_tokens, else `stop` (EOS). */
  finishReason: 'length' | 'stop';
  /** When the request reaches the scheduler. */
  arrivalTime: number;
  /**
   * PD decode instance: when the request's KV, and its first token (made by the prefill instance),
   * has arrived. It skips the front end and prefill, and joins the decode batch once the KV pool
   * has room for it. Absent: the engine runs the whole request.
   */
  kvArrivalTime?: number;
}

/** A chunk of output the engine makes visible to the client. */
export interface TokenEmission {
  requestId: string;
  /** Engine-clock seconds at which the chunk is due to be written to the client. */
  time: number;
  /** Tokens carried by this chunk (more than one under speculative decoding). */
  tokens: number;
  /** Output tokens emitted so far for this request, this chunk included. */
  completionTokens: number;
  /** Prompt tokens served from the prefix cache (set on the first chunk). */
  cachedTokens: number;
  /** Verify passes this request has taken so far (speculative decoding), else 0. */
  specVerifyCount: number;
  /**
   * Engine seconds the request waited in the scheduler's queue before its first prefill batch
   * (SGLang's queueing time); on every chunk once admitted, absent where the engine models no queue.
   */
  queueTime?: number;
  finished: boolean;
  finishReason: 'length' | 'stop' | 'abort' | null;
}

/** Live figures of an engine, reported by /get_server_info and /metrics. */
/** One DP rank's load (a replica, or an attention rank under DP attention), as SGLang's internal_states lists it. */
export interface DpRankLoad {
  numRunning: number;
  numWaiting: number;
  kvUsage: number;
}

export interface EngineStats {
  /** Each DP rank's share of the load below, in rank order. */
  dpRanks: DpRankLoad[];
  numRunning: number;
  /** Requests in the schedulers' waiting queues (SGLang's num_queue_reqs). */
  numWaiting: number;
  /** Fraction of KV token slots in use (0..1). */
  kvUsage: number;
  kvCapacityTokens: number;
  /** Accepted tokens per verify pass since start or the last flush; null without speculative decoding. */
  avgSpecAcceptLength: number | null;
  promptTokensTotal: number;
  generationTokensTotal: number;
  cachedTokensTotal: number;
  requestsFinished: number;
  /** Seconds the requests that got their first chunk waited in a scheduler queue, summed (engine time), and how many they are. */
  queueTimeSum: number;
  queuedRequests: number;
  /** Sum of step times, split by phase, for the Prometheus histograms. */
  stepCount: number;
}

/**
 * A serving engine in engine-clock time. Pure: no timers, no I/O. The HTTP server maps engine time
 * 1:1 to wall time; `predict` advances it in virtual time.
 */
export interface Engine {
  submit(request: SimRequest): void;
  /** Drops a request (client disconnected): frees its batch slot and KV at once. */
  abort(requestId: string, now: number): void;
  /** Engine-clock time of the next internal event, or undefined when idle with nothing queued. */
  nextEventTime(): number | undefined;
  /** Runs every step that ends at or before `until`; returns the emissions they produced, in time order. */
  advanceTo(until: number): TokenEmission[];
  /** Empties the prefix cache and resets the accept-length counters (SGLang `/flush_cache`). Fails while requests run. */
  flushCache(): boolean;
  stats(): EngineStats;
}
