/** SGLang's launch flags as a deployment states them: what the sim, predict and the catalog read alike. */
import type { HardwareProfile } from './model/catalog.js';

/** Python logging's levels, most severe first. */
export type LogLevel = 'critical' | 'error' | 'warning' | 'info' | 'debug';

/**
 * SGLang launch flags that shape performance or the API, as given on the command line.
 * `null` means "not given": the performance model derives SGLang's default (spec §2 "Derived limits").
 */
/** SGLang's KV transfer engines (`--disaggregation-transfer-backend`, default mooncake). */
export const TRANSFER_BACKENDS = ['mooncake', 'nixl', 'ascend', 'mori', 'fake'] as const;
export type TransferBackend = (typeof TRANSFER_BACKENDS)[number];

export interface LaunchConfig {
  modelPath: string;
  /** `--revision`: the branch, tag or commit of a hub `--model-path` whose config.json is read; null: `main`. */
  revision: string | null;
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
  /** Port of a prefill instance's bootstrap server; a decode instance's stands in for a request's null `bootstrap_port`. */
  disaggregationBootstrapPort: number;
  /** PD: the engine that moves KV between instances (`--disaggregation-transfer-backend`); `fake` moves none. */
  disaggregationTransferBackend: TransferBackend;
  /** PD: the RDMA devices the transfer engine uses (`--disaggregation-ib-device`), as given; null: the node's own, one per device. */
  disaggregationIbDevice: string | null;
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

/** Truth mode: every request's chunks at exactly scheduled times (spec: sim lateness ground truth). */
export interface TruthOptions {
  ttftMs: number;
  itlMs: number;
  tokensPerChunk: number;
  /**
   * Every chunk on one step clock shared by all requests (multiples of `itlMs`), the first at the
   * first step at least `ttftMs` after arrival: a continuous-batching engine's pattern, where one
   * decode step writes to every running stream at once. Otherwise each request keeps its own phase.
   */
  sharedSteps: boolean;
}
