/**
 * The result of a run as bench_serving reports it (BenchmarkMetrics, spec §5) and servebench's
 * extra figures. Plain data: the bench runner computes it from request outputs, the simulator's
 * predict mode and the catalog build it from their own sources, and the output module prints it.
 */
import type { BackendName } from '../args/types.js';
import type { FailureCause, RequestOutput } from '../types.js';

/** bench_serving's BenchmarkMetrics plus the duration and accept length it prints next to them. Times in ms unless named `S`. */
export interface BenchmarkMetrics {
  durationS: number;
  completed: number;
  totalInput: number;
  totalInputText: number;
  totalInputVision: number;
  totalOutput: number;
  totalOutputRetokenized: number;
  requestThroughput: number;
  inputThroughput: number;
  outputThroughput: number;
  outputThroughputRetokenized: number;
  totalThroughput: number;
  totalThroughputRetokenized: number;
  meanTtftMs: number;
  medianTtftMs: number;
  stdTtftMs: number;
  p99TtftMs: number;
  meanTpotMs: number;
  medianTpotMs: number;
  stdTpotMs: number;
  p99TpotMs: number;
  meanItlMs: number;
  medianItlMs: number;
  stdItlMs: number;
  p95ItlMs: number;
  p99ItlMs: number;
  maxItlMs: number;
  meanE2eLatencyMs: number;
  medianE2eLatencyMs: number;
  stdE2eLatencyMs: number;
  p90E2eLatencyMs: number;
  p99E2eLatencyMs: number;
  /** Σ E2E latency / duration: the mean number of requests in flight. */
  concurrency: number;
  /** Server-reported speculative accept length (sglang backends), or null. */
  acceptLength: number | null;
  /** Highest count of token events in one 1-second bucket. */
  maxOutputTokensPerS: number;
  /** Highest count of requests in flight in one 1-second bucket. */
  maxConcurrentRequests: number;
}

/** What {@link calculateMetrics} needs besides the outputs; the caller does the (async) tokenizing. */
export interface MetricsInput {
  /** Every request output in dataset order (flattened for multi-turn), failures included. */
  outputs: readonly RequestOutput[];
  durationS: number;
  backend: BackendName;
  acceptLength: number | null;
  /**
   * Token count of each output's `generatedText` (encode without special tokens), aligned with
   * `outputs`; entries of failed outputs are ignored.
   */
  retokenizedOutputLens: readonly number[];
  /**
   * Token count of each `textChunks` entry, aligned with `outputs`. Read only when
   * {@link usesRetokenizedItl} is true (sglang-oai backends with an accept length).
   */
  chunkTokenCounts?: readonly (readonly number[])[];
  /** Multi-turn conversations report 0 input tokens (bench_serving quirk Q10). */
  multiTurn?: boolean;
}

/** Client-side queueing behind `--max-concurrency`, in ms. */
export interface QueueTimeStats {
  meanMs: number;
  p99Ms: number;
}

/** Time to the first reasoning token over the successful requests that had one, in ms. */
export interface ReasoningTtftStats {
  count: number;
  meanMs: number;
  medianMs: number;
  p99Ms: number;
}

/** servebench's figures, computed from the same outputs without touching the reference ones. */
export interface ServebenchExtras {
  failed: number;
  /** Failure count per cause, in the order of FailureCause; causes with no failure are absent. */
  failuresByCause: Partial<Record<FailureCause, number>>;
  /** Requests sent twice because the server closed a reused keep-alive connection unanswered (it may have seen both). */
  resentRequests: number;
  /** Null unless `--max-concurrency` limited the run. */
  queueTime: QueueTimeStats | null;
  /** `--request-rate` as given (inf when unlimited). */
  requestedRate: number;
  /** Requests sent per second of the measured window; null when nothing was sent. */
  achievedRate: number | null;
  /** The most requests in flight at one instant (never above `--max-concurrency`). */
  peakInFlight: number;
  /** The most output token events in any 1-second window. */
  peakOutputTokensPerS: number;
  reasoningTtft: ReasoningTtftStats | null;
}

/** What {@link calculateExtras} needs from the command line. */
export interface ExtrasInput {
  outputs: readonly RequestOutput[];
  /** The measured window (bench_serving's duration), seconds. */
  durationS: number;
  requestRate: number;
  maxConcurrency: number | null;
}
