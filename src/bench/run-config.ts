/**
 * A bench run's settings, resolved once from the parsed command line: camelCase, grouped by the
 * part of the run that reads them, and frozen. Everything after the parser reads this, never the
 * argparse namespace, which stays for what must look like bench_serving's (the printed
 * `Namespace(...)` and the stored arguments: args/resolved-namespace.ts). The server's address
 * and model are resolved by target.ts, as they need the network.
 */
import { deepFreeze } from '../core/deep-freeze.js';
import { UserError } from '../core/errors.js';
import { splitHeaderEntry } from '../core/header-entry.js';
import { parseExtraBody } from './args/extra-body.js';
import type { BackendName, BenchArgs } from './args/types.js';
import type { DatasetName } from '../core/dataset-names.js';
import type { ServerAddress } from './args/urls.js';

/** What the dataset builders read (spec §3). */
export interface DatasetOptions {
  readonly name: DatasetName;
  readonly path: string;
  readonly numPrompts: number;
  /** Send prompts as token ids instead of text. */
  readonly tokenizePrompt: boolean;
  /** Forced on for the image and mmmu datasets, as bench_serving does. */
  readonly applyChatTemplate: boolean;
  readonly promptSuffix: string;
  readonly sharegpt: { readonly outputLen: number | null; readonly contextLen: number | null };
  readonly random: { readonly inputLen: number; readonly outputLen: number; readonly rangeRatio: number };
  readonly image: {
    readonly count: number;
    readonly resolution: string;
    readonly randomCount: boolean;
    readonly format: string;
    readonly content: string;
  };
  /** generated-shared-prefix. */
  readonly gsp: {
    readonly numGroups: number;
    readonly promptsPerGroup: number;
    readonly systemPromptLen: number;
    readonly questionLen: number;
    readonly outputLen: number;
    readonly rangeRatio: number;
    readonly fastPrepare: boolean;
    readonly sendRoutingKey: boolean;
    readonly numTurns: number;
    readonly ordered: boolean;
  };
  readonly mooncake: {
    readonly slowdownFactor: number;
    readonly numRounds: number;
    readonly workload: BenchArgs['mooncake_workload'];
  };
}

/** How the requests arrive. */
export interface LoadOptions {
  /** Requests per second; Infinity sends them all at once. */
  readonly requestRate: number;
  /** Labels the rate "trace" (bench_serving uses it for nothing else). */
  readonly useTraceTimestamps: boolean;
  readonly maxConcurrency: number | null;
  readonly warmupRequests: number;
  readonly flushCache: boolean;
}

/** What every request carries. */
export interface RequestOptions {
  readonly disableStream: boolean;
  readonly disableIgnoreEos: boolean;
  readonly returnLogprob: boolean;
  readonly returnRoutedExperts: boolean;
  readonly printRequests: boolean;
  /** The parsed `--extra-request-body` ({} when absent). */
  readonly extraBody: Readonly<Record<string, unknown>>;
  /** `--header` entries as given. */
  readonly headers: readonly string[] | null;
  readonly lora: {
    readonly names: readonly string[] | null;
    readonly distribution: BenchArgs['lora_request_distribution'];
    readonly zipfAlpha: number;
  };
}

/** `--profile` and its options (spec §4.4). */
export interface ProfileOptions {
  readonly enabled: boolean;
  readonly activities: readonly string[];
  readonly numSteps: number | null;
  readonly byStage: boolean;
  readonly stages: readonly string[] | null;
  readonly outputDir: string | null;
  readonly prefix: string | null;
  readonly pdSeparated: boolean;
  readonly prefillUrls: readonly string[] | null;
  readonly decodeUrls: readonly string[] | null;
}

export interface BenchRunConfig {
  /** The arguments as parsed: what the printed and stored Namespace is built from (args/resolved-namespace.ts). */
  readonly namespace: BenchArgs;
  readonly backend: BackendName;
  /** The server as given; target.ts resolves it (or replaces it with the started sim). */
  readonly server: ServerAddress;
  /** `--model`, else the launch flags' model of a prediction; null asks the server. */
  readonly model: string | null;
  readonly servedModelName: string | null;
  /** `--tokenizer`; null takes the model's. */
  readonly tokenizer: string | null;
  readonly seed: number;
  readonly dataset: DatasetOptions;
  readonly load: LoadOptions;
  readonly request: RequestOptions;
  readonly profile: ProfileOptions;
  readonly output: {
    /** `--output-file`; null writes bench_serving's default name. */
    readonly file: string | null;
    readonly details: boolean;
    readonly disableProgress: boolean;
    readonly plotThroughput: boolean;
  };
  readonly catalog: { readonly record: boolean; readonly db: string | null };
  /** `--sim`: SGLang launch flags of an in-process sim to benchmark. */
  readonly sim: string | null;
  /** `--sim-time-scale`: with `sim`, wall seconds per engine second, or 'auto' (run-bench.ts picks it). */
  readonly simTimeScale: number | 'auto';
  /** Load-generation threads; null = chosen from the core count. */
  readonly workers: number | null;
  readonly realtime: boolean;
  /** `--lazy-connect`: no warm pool; a request that opens a connection starts when the attempt leaves. */
  readonly lazyConnect: boolean;
  /** Seconds without a byte on a stream before that request fails as stalled. */
  readonly streamIdleTimeout: number;
  /** The server's side of the run: `/metrics` read every `intervalS` and the responses' own figures reported; off with `--no-server-metrics`. */
  readonly serverMetrics: { readonly enabled: boolean; readonly intervalS: number };
  readonly repeat: RepeatOptions;
}

/** `--num-runs` and what goes with it: the measured phase repeated against one server with the same requests. */
export interface RepeatOptions {
  /** How many times the measured phase runs (1: once). */
  readonly runs: number;
  /** Seconds between two runs. */
  readonly cooldownS: number;
  /** Of the intervals over the runs (0.95: 95%). */
  readonly confidenceLevel: number;
}

/** The datasets whose requests carry images: bench_serving applies the chat template for them whatever the flag says. */
const TEMPLATED_DATASETS: ReadonlySet<DatasetName> = new Set<DatasetName>(['image', 'mmmu']);

export interface ResolveOptions {
  /** The model when `--model` names none and no server is asked (a prediction: the launch flags' model). */
  defaultModel?: string | null;
}

/**
 * The run config of parsed arguments, after bench_serving's start-up checks (the
 * `--extra-request-body` JSON first, then validate.ts), which throw one-line errors.
 */
export function resolveRunConfig(args: BenchArgs, options: ResolveOptions = {}): BenchRunConfig {
  const extraBody = parseExtraBody(args.extra_request_body);
  const config: BenchRunConfig = deepFreeze({
    // A copy: freezing the config must leave the caller's namespace as parsed.
    namespace: structuredClone(args),
    backend: args.backend,
    server: { baseUrl: args.base_url, host: args.host, port: args.port },
    model: args.model ?? options.defaultModel ?? null,
    servedModelName: args.served_model_name,
    tokenizer: args.tokenizer,
    seed: args.seed,
    dataset: {
      name: args.dataset_name,
      path: args.dataset_path,
      numPrompts: args.num_prompts,
      tokenizePrompt: args.tokenize_prompt,
      applyChatTemplate: args.apply_chat_template || TEMPLATED_DATASETS.has(args.dataset_name),
      promptSuffix: args.prompt_suffix,
      sharegpt: { outputLen: args.sharegpt_output_len, contextLen: args.sharegpt_context_len },
      random: { inputLen: args.random_input_len, outputLen: args.random_output_len, rangeRatio: args.random_range_ratio },
      image: {
        count: args.image_count,
        resolution: args.image_resolution,
        randomCount: args.random_image_count,
        format: args.image_format,
        content: args.image_content,
      },
      gsp: {
        numGroups: args.gsp_num_groups,
        promptsPerGroup: args.gsp_prompts_per_group,
        systemPromptLen: args.gsp_system_prompt_len,
        questionLen: args.gsp_question_len,
        outputLen: args.gsp_output_len,
        rangeRatio: args.gsp_range_ratio,
        fastPrepare: args.gsp_fast_prepare,
        sendRoutingKey: args.gsp_send_routing_key,
        numTurns: args.gsp_num_turns,
        ordered: args.gsp_ordered,
      },
      mooncake: { slowdownFactor: args.mooncake_slowdown_factor, numRounds: args.mooncake_num_rounds, workload: args.mooncake_workload },
    },
    load: {
      requestRate: args.request_rate,
      useTraceTimestamps: args.use_trace_timestamps,
      maxConcurrency: args.max_concurrency,
      warmupRequests: args.warmup_requests,
      flushCache: args.flush_cache,
    },
    request: {
      disableStream: args.disable_stream,
      disableIgnoreEos: args.disable_ignore_eos,
      returnLogprob: args.return_logprob,
      returnRoutedExperts: args.return_routed_experts,
      printRequests: args.print_requests,
      extraBody,
      headers: args.header === null ? null : [...args.header],
      lora: {
        names: args.lora_name === null ? null : [...args.lora_name],
        distribution: args.lora_request_distribution,
        zipfAlpha: args.lora_zipf_alpha,
      },
    },
    profile: {
      enabled: args.profile,
      activities: [...args.profile_activities],
      numSteps: args.profile_num_steps,
      byStage: args.profile_by_stage,
      stages: args.profile_stages === null ? null : [...args.profile_stages],
      outputDir: args.profile_output_dir,
      prefix: args.profile_prefix,
      pdSeparated: args.pd_separated,
      prefillUrls: args.profile_prefill_url === null ? null : [...args.profile_prefill_url],
      decodeUrls: args.profile_decode_url === null ? null : [...args.profile_decode_url],
    },
    output: {
      file: args.output_file,
      details: args.output_details,
      disableProgress: args.disable_tqdm,
      plotThroughput: args.plot_throughput,
    },
    catalog: { record: !args.extensions.noCatalog, db: args.extensions.db },
    sim: args.extensions.sim,
    simTimeScale: args.extensions.simTimeScale ?? 'auto',
    workers: args.extensions.workers,
    realtime: args.extensions.realtime,
    lazyConnect: args.extensions.lazyConnect,
    streamIdleTimeout: args.extensions.streamIdleTimeout,
    serverMetrics: { enabled: !args.extensions.noServerMetrics, intervalS: args.extensions.metricsInterval },
    repeat: { runs: args.extensions.numRuns, cooldownS: args.extensions.cooldown, confidenceLevel: args.extensions.confidenceLevel },
  });
  validateRunConfig(config);
  return config;
}

/** The message bench_serving prints when `trt` runs without `--model` (kept verbatim). */
export const TRT_NEEDS_MODEL = 'Please provide a model using `--model` when using `trt` backend.';

/**
 * bench_serving's start-up checks (spec §1.3 steps 1, 6, 8, 11–13), on the run config as it is
 * resolved, as one-line UserErrors (exit 1) instead of assertion tracebacks. Checks that need the
 * network or files (model discovery) belong to the run; the range of each number is checked as it
 * is parsed (args/options.ts). Throws on the first setting bench_serving refuses. `--print-requests` is allowed with every
 * backend (Q26), and `gserver`, which crashes bench_serving, is refused up front (Q16).
 */
function validateRunConfig(config: BenchRunConfig): void {
  const { backend, dataset } = config;
  if (dataset.tokenizePrompt && backend !== 'sglang') {
    throw new UserError(`--tokenize-prompt only works with --backend sglang (got '${backend}'); drop the flag or switch backends`);
  }
  if (backend === 'gserver') {
    throw new UserError("--backend gserver is not implemented (bench_serving crashes on it); choose another backend");
  }
  if (backend === 'trt' && config.model === null) throw new UserError(TRT_NEEDS_MODEL);
  if ((dataset.name === 'image' || dataset.name === 'mmmu') && dataset.tokenizePrompt) {
    throw new UserError(`--tokenize-prompt cannot be used with --dataset-name ${dataset.name}; drop the flag`);
  }
  // bench_serving drops an entry with an empty key or value, but an entry with no separator at all
  // is a typo the user would never see (the header would silently not be sent).
  const malformed = (config.request.headers ?? []).find((entry) => splitHeaderEntry(entry) === null);
  if (malformed !== undefined) {
    throw new UserError(`--header entry without ':' or '=' (${malformed.length} characters, not shown: it may hold a secret); write it as 'Key: Value' or Key=Value`);
  }
  const { repeat } = config;
  if (repeat.cooldownS > 0 && repeat.runs === 1) throw new UserError('--cooldown waits between repeated runs: add --num-runs N (N ≥ 2), or drop it');
  // One trace per profiled run would be N sets of traces in one directory, told apart by nothing.
  if (repeat.runs > 1 && config.profile.enabled) throw new UserError('--profile traces one run: drop --num-runs to profile, or --profile to repeat');
  const { names, distribution } = config.request.lora;
  if ((distribution === 'distinct' || distribution === 'skewed') && (names ?? []).length < 2) {
    throw new UserError(`--lora-request-distribution ${distribution} needs at least two adapters; pass them with --lora-name A B ...`);
  }
}
