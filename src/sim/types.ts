/**
 * Contracts of the simulated engine:
 * SGLang launch flags → LaunchConfig → (performance model + scheduler = Engine) → token emissions
 * → HTTP streams (`servebench sim`) or virtual-time metrics (`servebench predict`).
 */
import type { HardwareProfile } from './model/catalog.js';

/** Python logging's levels, most severe first. */
export type LogLevel = 'critical' | 'error' | 'warning' | 'info' | 'debug';

/**
 * SGLang launch flags that shape performance or the API, as given on the command line.
 * `null` means "not given": the performance model derives SGLang's default (spec §2 "Derived limits").
 */
export interface LaunchConfig {
  modelPath: string;
  servedModelName: string | null;
  host: string;
  port: number;
  tpSize: number;
  dpSize: number;
  epSize: number;
  enableDpAttention: boolean;
  enableDpLmHead: boolean;
  moeDenseTpSize: number | null;
  maxRunningRequests: number | null;
  maxTotalTokens: number | null;
  chunkedPrefillSize: number | null;
  maxPrefillTokens: number | null;
  contextLength: number | null;
  memFractionStatic: number | null;
  kvCacheDtype: string | null;
  quantization: string | null;
  dtype: string | null;
  pageSize: number | null;
  disableRadixCache: boolean;
  enableMixedChunk: boolean;
  disableOverlapSchedule: boolean;
  disableCudaGraph: boolean;
  cudaGraphMaxBs: number | null;
  speculativeAlgorithm: string | null;
  speculativeNumSteps: number | null;
  speculativeEagleTopk: number | null;
  speculativeNumDraftTokens: number | null;
  disaggregationMode: 'null' | 'prefill' | 'decode';
  nnodes: number;
  reasoningParser: string | null;
  toolCallParser: string | null;
  enableMetrics: boolean;
  /** Python logging level of the server's log (`--log-level`): SGLang's scheduler lines are INFO. */
  logLevel: LogLevel;
  /** Decode steps of a scheduler rank between two of its `Decode batch` lines (`--decode-log-interval`). */
  decodeLogInterval: number;
  /** A `Receive` and a `Finish` line per request (`--log-requests`), with `--log-requests-level` detail (0–3). */
  logRequests: boolean;
  logRequestsLevel: number;
  /** Sim-only: key of the catalogued hardware profile `--hardware` names (see `hardwareNames()`). */
  hardware: string;
  /** Sim-only: a device given as data (`--hardware-spec FILE.json`, or resolved by the caller); it wins over `hardware`. */
  hardwareProfile: HardwareProfile | null;
  /** Sim-only: model catalog key when the path does not name a known model. */
  simModel: string | null;
  /** Sim-only: seed of every random draw the sim makes (output lengths, accept lengths, text). */
  simSeed: number;
  /**
   * Sim-only: the bench dataset its requests come from (`bench --sim` and `predict` set it), which
   * picks the speculative acceptance the calibration saw on it; null: the model's over every dataset.
   */
  simDataset: string | null;
  /** Sim-only: run the sim's event-loop thread under the real-time scheduler (`--sim-realtime`). */
  simRealtime: boolean;
  /** Flags accepted for paste-compatibility but without effect, in the order given (e.g. `--trust-remote-code`). */
  ignoredFlags: string[];
  /** The full argument list as given (secrets redacted), reported by /get_server_info. */
  rawArgs: string[];
}

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
export interface EngineStats {
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
