import type { DatasetName } from '../../core/dataset-names.js';

export { DATASET_CHOICES, type DatasetName } from '../../core/dataset-names.js';

/**
 * The parsed `servebench bench` command line. Field names and order are bench_serving's
 * argparse Namespace (spec §1.2), so the printed `Namespace(...)` repr and the JSONL keys match
 * the reference byte for byte. servebench's own extension options follow in `extensions`;
 * they are never printed inside the Namespace.
 */
/** Backend names bench_serving accepts, then servebench's aliases `openai` (= vllm) and `openai-chat` (= vllm-chat). */
export const BACKEND_CHOICES = [
  'sglang',
  'sglang-native',
  'sglang-oai',
  'sglang-oai-chat',
  'vllm',
  'vllm-chat',
  'lmdeploy',
  'lmdeploy-chat',
  'trt',
  'gserver',
  'truss',
  'openai',
  'openai-chat',
] as const;

export type BackendName = (typeof BACKEND_CHOICES)[number];

export interface BenchArgs {
  backend: BackendName;
  base_url: string | null;
  host: string;
  port: number | null;
  dataset_name: DatasetName;
  dataset_path: string;
  model: string | null;
  served_model_name: string | null;
  tokenizer: string | null;
  num_prompts: number;
  sharegpt_output_len: number | null;
  sharegpt_context_len: number | null;
  random_input_len: number;
  random_output_len: number;
  random_range_ratio: number;
  image_count: number;
  image_resolution: string;
  random_image_count: boolean;
  image_format: string;
  image_content: string;
  request_rate: number;
  use_trace_timestamps: boolean;
  max_concurrency: number | null;
  output_file: string | null;
  output_details: boolean;
  print_requests: boolean;
  disable_tqdm: boolean;
  disable_stream: boolean;
  return_logprob: boolean;
  return_routed_experts: boolean;
  seed: number;
  disable_ignore_eos: boolean;
  extra_request_body: string | null;
  apply_chat_template: boolean;
  profile: boolean;
  plot_throughput: boolean;
  profile_activities: string[];
  profile_num_steps: number | null;
  profile_by_stage: boolean;
  profile_stages: string[] | null;
  profile_output_dir: string | null;
  profile_prefix: string | null;
  lora_name: string[] | null;
  lora_request_distribution: 'uniform' | 'distinct' | 'skewed';
  lora_zipf_alpha: number;
  prompt_suffix: string;
  pd_separated: boolean;
  profile_prefill_url: string[] | null;
  profile_decode_url: string[] | null;
  flush_cache: boolean;
  warmup_requests: number;
  tokenize_prompt: boolean;
  gsp_num_groups: number;
  gsp_prompts_per_group: number;
  gsp_system_prompt_len: number;
  gsp_question_len: number;
  gsp_output_len: number;
  gsp_range_ratio: number;
  gsp_fast_prepare: boolean;
  gsp_send_routing_key: boolean;
  gsp_num_turns: number;
  gsp_ordered: boolean;
  mooncake_slowdown_factor: number;
  mooncake_num_rounds: number;
  mooncake_workload: 'mooncake' | 'conversation' | 'synthetic' | 'toolagent';
  tag: string | null;
  header: string[] | null;
  extensions: BenchExtensions;
}

/** servebench-only options (none shares a prefix with a bench_serving option's abbreviations in use). */
export interface BenchExtensions {
  /** SGLang launch flags of an in-process simulated server to start and benchmark; null = use host/port. */
  sim: string | null;
  /** `--sim-time-scale`: wall seconds per engine second of the sim, 'auto' to pick it for the run, null when not given (auto). */
  simTimeScale: number | 'auto' | null;
  /** Load-generation worker threads; null = chosen from the core count. */
  workers: number | null;
  /** Load-generating threads under SCHED_FIFO during the measured phase, where permitted. */
  realtime: boolean;
  /** Connect as requests need it and count connecting in TTFT (bench_serving's way), instead of a warm pool. */
  lazyConnect: boolean;
  /** `key=value` labels stored with the run in the catalog. */
  labels: Record<string, string>;
  /** Catalog database path; null = the default location. */
  db: string | null;
  /** Do not record the run in the catalog. */
  noCatalog: boolean;
  /** Seconds without a byte on a stream before that request fails as stalled. */
  streamIdleTimeout: number;
  /** Seconds between two readings of the server's `/metrics` during the run. */
  metricsInterval: number;
  /** `--no-server-metrics`: no `/metrics` readings and no server-side section. */
  noServerMetrics: boolean;
  /** `--num-runs`: how many times the measured phase runs (1: once, as bench_serving). */
  numRuns: number;
  /** `--cooldown`: seconds between two repeated runs. */
  cooldown: number;
  /** `--confidence-level`: of the intervals over repeated runs (0.95: 95%). */
  confidenceLevel: number;
  /** `--shards K`: the run is sent from K shard processes (bench/shards/); null for one process. */
  shards: number | null;
  /** `--shard-rank`: this process's rank in a sharded run (0 the coordinator, 1..K a shard); null: from the environment, or this host runs them all. */
  shardRank: number | null;
  /** `--coordinator HOST:PORT` of a sharded run across machines. */
  coordinator: string | null;
  /** `--shard-timeout`: seconds to wait for the shards (or the coordinator). */
  shardTimeout: number;
  /** `--linger`: seconds the coordinator waits after keeping the results. */
  linger: number;
  /** `--k8s-manifest FILE`: write the Kubernetes manifest of the sharded run there and exit. */
  k8sManifest: string | null;
  /** `--image` (`--k8s-image`): the image the manifest's pods run. */
  k8sImage: string | null;
  /** `--k8s-name`: the manifest's object name. */
  k8sName: string;
}
