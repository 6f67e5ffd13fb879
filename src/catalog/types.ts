/**
 * Contracts of the run catalog: what a writer hands to `recordRun` and what readers get back.
 * Metric names are bench_serving's JSONL keys (`mean_ttft_ms`, `output_throughput`, ...).
 */
import type { RepeatMembership, ShardSummary } from '../bench/index.js';
import type { Deployment, DeploymentFlags, DeploymentInstance, ReportedHardware } from '../deployment/index.js';
import type { MetricDefinitions } from './metric-definitions.js';
import type { RunMode } from './run-mode.js';

/** A metric value as bench_serving reports it: a number (Infinity for `inf`), a string (`backend`, `trace`) or null (`not set`). */
export type MetricValue = number | string | null;

/** One request of a run (bench_serving's per-request output). Times are seconds. */
export interface RequestRecord {
  /** Seconds from the run's first send; null when the source does not say (bench_serving details arrays). */
  startTime: number | null;
  ttft: number | null;
  /** End-to-end latency; null when the source does not say. */
  latency: number | null;
  /** Inter-token latencies in seconds, in order. */
  itl: number[];
  promptLen: number | null;
  outputLen: number | null;
  success: boolean;
  /** Error text of a failed request ('' for a success). */
  error: string;
  /** servebench's failure cause (`http_5xx`, `timeout`, ...), null for a success or when unknown. */
  cause: string | null;
  /** Seconds it waited for a `--max-concurrency` slot before `startTime`; absent or null when the source does not say. */
  queueTime?: number | null;
  /**
   * What the server's response said about the request (bench's ServerReport: promptTokens,
   * completionTokens, cachedTokens, specVerifyCount, e2eLatency and queueTime in the server's seconds);
   * absent or null when it said nothing or the source does not say.
   */
  server?: Record<string, number> | null;
}

/**
 * The server's `/metrics` over a bench run's measured window, as the JSONL record keeps it
 * (`servebench.server_side.metrics`: dialect, figures, and `series` of the readings for `plot --kind server`).
 */
export type ServerMetricsRecord = Record<string, unknown>;

/** Where a run came from. The content hash makes recording idempotent: the same run is stored once. */
export interface RunSource {
  /** `eval`: an accuracy run (`servebench eval`); its metrics are `EvalRunMetrics`. */
  kind: 'bench' | 'ingest' | 'eval';
  /** The file a run was ingested from (as given on the command line), or the bench output file. */
  file: string | null;
  /** sha256 (hex) of the text the run was read from, or of the bench record; unique in the catalog. */
  contentHash: string;
  /** Recipe heading or other short title the source gives the run. */
  title?: string | null;
}

/**
 * The metrics of an eval run (`source.kind` `eval`), besides `accuracy.<subject>` per subject.
 * Against the sim the answers are synthetic: accuracy, invalid and correct are null there.
 */
export interface EvalRunMetrics {
  [key: string]: MetricValue;
  /** `gsm8k`, `mmlu`, `gpqa`. */
  task: string;
  num_shots: number;
  questions: number;
  accuracy: number | null;
  /** Share of answers extraction could not read. */
  invalid: number | null;
  correct: number | null;
  /** `scored`, or `synthetic` when the server was servebench's sim. */
  answers: 'scored' | 'synthetic';
  /** Requests that got a reply; the failed ones count as invalid answers. */
  completed: number;
  failed: number;
  /** Seconds from the first question sent to the last answer (SGLang's `Latency`). */
  latency: number;
  output_throughput: number;
  total_output_tokens: number;
}

/** The launch flags a recipe's command states (deployment/deployment.ts, the one deployment type); absent = not given. */
export type { DeploymentFlags };

/**
 * One server process of a recipe (a PD-separated recipe has a prefill, a decode and a router): a
 * deployment instance, with its command as written, or as its server reported itself.
 */
export interface RecipeInstance extends DeploymentInstance {
  /**
   * The launcher as written: `python -m sglang.launch_server`, `sglang serve`, ...; for an instance
   * read from its server's `/get_server_info`, the server and its version (`servebench-sim 0.1.0`, `sglang 0.5.6`).
   */
  launcher: string;
  /**
   * Every flag as given (`--tp` → `"8"`, boolean flags → `true`), secrets redacted; `config` holds the
   * facts read from them, or those the server reported (then `flags` are the sim's as given, or none).
   */
  flags: Record<string, string | true>;
  /** The device the instance ran on, where its server named it (the sim names the one it simulates); absent when none did. */
  hardware?: ReportedHardware;
  /** The weights' format its server reported serving (the sim's, `bf16` included); absent when it did not say. */
  weightFormat?: string;
}

/**
 * The deployment a run was measured on, as the catalog stores it (the `recipe` column's JSON): the
 * deployment's instances with their launch commands, and the recipe's environment variables.
 */
export interface RecipeConfig extends Deployment<RecipeInstance> {
  /** `export NAME=value` lines of the recipe (secrets redacted). */
  env: Record<string, string>;
  /** Where the recipe came from: `file`, `previous recipe` ("same deployment"), `command line`. */
  origin: string;
}

/** Everything `recordRun` stores about one benchmark run. Only `source` and `metrics` are required. */
export interface RunInput {
  source: RunSource;
  /** Result metrics, keyed like the JSONL record (`duration`, `completed`, `mean_ttft_ms`, ...). */
  metrics: Record<string, MetricValue>;
  /** Definitions of the metrics another tool measured differently from bench_serving (see metric-definitions.ts). */
  metricDefinitions?: MetricDefinitions;
  /** Resolved bench arguments (bench_serving's Namespace in snake_case, or what a log states); secrets are redacted on write. */
  args?: Record<string, unknown> | null;
  /** Model name; default: `args.model`, else the recipe's model path. */
  model?: string | null;
  /** ISO-8601 time the run started, when known. */
  startedAt?: string | null;
  /** `servebench 0.1.0`, `sglang 0.5.6.post2`, ... when known. */
  toolVersion?: string | null;
  /** The server's `/get_server_info` body, when known. */
  serverInfo?: unknown;
  /** Package versions, container image and similar facts a log states. */
  environment?: Record<string, string>;
  /** User labels (`hardware=ascend-910c`, `cards=16`, `deploy=pd-separation`). */
  labels?: Record<string, string>;
  recipe?: RecipeConfig | null;
  /** What could not be read or does not add up, one line each. */
  warnings?: string[];
  requests?: RequestRecord[];
  /** The server's /metrics over the run (bench runs against a server exposing them). */
  serverMetrics?: ServerMetricsRecord | null;
  /** What the run is; default: what its labels, arguments and metrics say (run-mode.ts). */
  mode?: RunMode;
  /** One run of a repeated measurement (`bench --num-runs`): its group, and which run of how many. */
  repeat?: RepeatMembership | null;
  /** A sharded run's shards (`bench --shards K`), as its record's `servebench.shards` gives them. */
  shards?: ShardRecord[] | null;
}

/** One shard of a sharded run, as bench summarized it. */
export type ShardRecord = ShardSummary;

/** A stored run as readers see it (per-request records are fetched separately). */
export interface RunRecord {
  id: string;
  /** ISO time the run entered the catalog. */
  recordedAt: string;
  startedAt: string | null;
  model: string | null;
  toolVersion: string | null;
  source: RunSource;
  args: Record<string, unknown> | null;
  metrics: Record<string, MetricValue>;
  /** Definitions of the metrics not measured as bench_serving measures them; absent or empty: all are. */
  metricDefinitions?: MetricDefinitions;
  serverInfo: unknown;
  environment: Record<string, string>;
  labels: Record<string, string>;
  recipe: RecipeConfig | null;
  warnings: string[];
  requestCount: number;
  /** Measured on a server, simulated (against servebench's sim) or predicted (virtual time). */
  mode: RunMode;
  /** The server's /metrics over the run; absent or null when none were read. */
  serverMetrics?: ServerMetricsRecord | null;
  /** One run of a repeated measurement; absent or null for a run measured once. */
  repeat?: RepeatMembership | null;
  /** A sharded run's shards; absent or null for one process's run. */
  shards?: ShardRecord[] | null;
}

/** Filters of `listRuns`; every given filter must hold. */
export interface RunFilter {
  /** Case-insensitive substring of the model name. */
  model?: string;
  /** Case-insensitive substring of the run's hardware: its `hardware` label, else the device its server reported. */
  hardware?: string;
  /** Exact label values. */
  labels?: Record<string, string>;
  /** Only runs of these modes. */
  modes?: readonly RunMode[];
  /** Only runs recorded (or started) at or after this ISO time. */
  since?: string;
  /** Newest first, at most this many. */
  limit?: number;
}

/** Outcome of recording one run: its id and whether it was new. */
export interface RecordOutcome {
  id: string;
  created: boolean;
}
