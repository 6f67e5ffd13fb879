/**
 * bench_serving's option table (spec §1.2), in definition order: that order is the order of the
 * printed `Namespace(...)` and of `BenchArgs` (bench/args/types.ts, the type the bench pipeline
 * reads). Each row says how argparse converts the value (and the range a number must lie in), so
 * the same table drives parsing, its checks, the help and the Python repr (floats print as `1.0`,
 * ints as `1`); catalog/ingest reads logged bench_serving commands with it.
 */
import { AT_LEAST_ONE, CONNECT_PORT, FRACTION, NON_NEGATIVE, SEED, type FlagRange } from '../../core/flag-range.js';
import { BACKEND_CHOICES, type BenchArgs } from './types.js';
import { DATASET_CHOICES } from '../../core/dataset-names.js';

/** The bench_serving fields of BenchArgs (everything but servebench's extensions). */
export type ReferenceDest = Exclude<keyof BenchArgs, 'extensions'>;

/** One bench_serving option: its flag, Namespace field, conversion, arity, choices, default and help. */
interface OptionFields {
  flag: `--${string}`;
  dest: ReferenceDest;
  nargs?: '+' | '*';
  choices?: readonly string[];
  defaultValue: string | number | boolean | readonly string[] | null;
  help: string;
  /** Options sharing a group name are mutually exclusive. */
  exclusiveGroup?: string;
}

/**
 * `kind` is how argparse turns the option's text into a value. A numeric option always states its
 * range: an unchecked value can hang a run (`--max-concurrency -1`) or never end it (`--request-rate 0`).
 */
export type OptionSpec = OptionFields & ({ kind: 'str' | 'flag' } | { kind: 'int' | 'float'; range: FlagRange });

/** All bench_serving options in definition order (= Namespace order). */
export const BENCH_OPTIONS: readonly OptionSpec[] = [
  { flag: '--backend', dest: 'backend', kind: 'str', choices: BACKEND_CHOICES, defaultValue: 'sglang', help: 'Request protocol of the server under test.' },
  { flag: '--base-url', dest: 'base_url', kind: 'str', defaultValue: null, help: 'URL prefix used instead of http://HOST:PORT.' },
  { flag: '--host', dest: 'host', kind: 'str', defaultValue: '0.0.0.0', help: 'Server host, used when --base-url is not set.' },
  { flag: '--port', dest: 'port', kind: 'int', range: CONNECT_PORT, defaultValue: null, help: 'Server port (default depends on the backend).' },
  { flag: '--dataset-name', dest: 'dataset_name', kind: 'str', choices: DATASET_CHOICES, defaultValue: 'sharegpt', help: 'Workload to generate.' },
  { flag: '--dataset-path', dest: 'dataset_path', kind: 'str', defaultValue: '', help: 'Dataset file (sharegpt, custom, openai, random, mooncake).' },
  { flag: '--model', dest: 'model', kind: 'str', defaultValue: null, help: 'Model id sent in requests and default tokenizer; discovered from /v1/models when unset.' },
  { flag: '--served-model-name', dest: 'served_model_name', kind: 'str', defaultValue: null, help: 'Model name sent in requests instead of --model.' },
  { flag: '--tokenizer', dest: 'tokenizer', kind: 'str', defaultValue: null, help: 'Tokenizer id or path (default: --model).' },
  { flag: '--num-prompts', dest: 'num_prompts', kind: 'int', range: AT_LEAST_ONE, defaultValue: 1000, help: 'Number of requests to send.' },
  { flag: '--sharegpt-output-len', dest: 'sharegpt_output_len', kind: 'int', range: AT_LEAST_ONE, defaultValue: null, help: 'Fixed output length for sharegpt, custom and openai rows.' },
  { flag: '--sharegpt-context-len', dest: 'sharegpt_context_len', kind: 'int', range: AT_LEAST_ONE, defaultValue: null, help: 'Drop sharegpt/custom rows whose prompt plus output exceed this.' },
  { flag: '--random-input-len', dest: 'random_input_len', kind: 'int', range: AT_LEAST_ONE, defaultValue: 1024, help: 'Input tokens per request (random, random-ids, image).' },
  { flag: '--random-output-len', dest: 'random_output_len', kind: 'int', range: AT_LEAST_ONE, defaultValue: 1024, help: 'Output tokens per request (random, random-ids, image, mmmu).' },
  { flag: '--random-range-ratio', dest: 'random_range_ratio', kind: 'float', range: FRACTION, defaultValue: 0.0, help: 'Lower bound of sampled lengths as a fraction of the maximum (0 gives [1, L]).' },
  { flag: '--image-count', dest: 'image_count', kind: 'int', range: AT_LEAST_ONE, defaultValue: 1, help: 'Images per request (image dataset).' },
  { flag: '--image-resolution', dest: 'image_resolution', kind: 'str', defaultValue: '1080p', help: 'Image size: 4k, 1080p, 720p, 360p or HxW.' },
  { flag: '--random-image-count', dest: 'random_image_count', kind: 'flag', defaultValue: false, help: 'Draw the image count per request from [1, --image-count].' },
  { flag: '--image-format', dest: 'image_format', kind: 'str', defaultValue: 'jpeg', help: 'Image encoding: jpeg or png.' },
  { flag: '--image-content', dest: 'image_content', kind: 'str', defaultValue: 'random', help: 'Image pixels: random or blank.' },
  { flag: '--request-rate', dest: 'request_rate', kind: 'float', range: { above: 0, max: Infinity, meaning: 'inf: all at once' }, defaultValue: Infinity, help: 'Poisson arrival rate in requests/s; inf sends everything at once.' },
  { flag: '--use-trace-timestamps', dest: 'use_trace_timestamps', kind: 'flag', defaultValue: false, help: 'Label the rate as "trace" (bench_serving uses it for nothing else).' },
  { flag: '--max-concurrency', dest: 'max_concurrency', kind: 'int', range: { min: 0, meaning: '0: no limit' }, defaultValue: null, help: 'Most requests in flight at once (unset or 0: no limit).' },
  { flag: '--output-file', dest: 'output_file', kind: 'str', defaultValue: null, help: 'JSONL file the result line is appended to.' },
  { flag: '--output-details', dest: 'output_details', kind: 'flag', defaultValue: false, help: 'Add per-request arrays to the JSONL record.' },
  { flag: '--print-requests', dest: 'print_requests', kind: 'flag', defaultValue: false, help: 'Log the start and end of every request.' },
  { flag: '--disable-tqdm', dest: 'disable_tqdm', kind: 'flag', defaultValue: false, help: 'Do not draw the progress bar.' },
  { flag: '--disable-stream', dest: 'disable_stream', kind: 'flag', defaultValue: false, help: 'Ask for non-streaming responses.' },
  { flag: '--return-logprob', dest: 'return_logprob', kind: 'flag', defaultValue: false, help: 'Ask /generate for logprobs.' },
  { flag: '--return-routed-experts', dest: 'return_routed_experts', kind: 'flag', defaultValue: false, help: 'Ask /generate for routed experts.' },
  { flag: '--seed', dest: 'seed', kind: 'int', range: SEED, defaultValue: 1, help: 'Random seed of the workload and arrival times.' },
  { flag: '--disable-ignore-eos', dest: 'disable_ignore_eos', kind: 'flag', defaultValue: false, help: 'Do not send ignore_eos=true.' },
  { flag: '--extra-request-body', dest: 'extra_request_body', kind: 'str', defaultValue: null, help: 'JSON object merged into every request body.' },
  { flag: '--apply-chat-template', dest: 'apply_chat_template', kind: 'flag', defaultValue: false, help: 'Apply the chat template to sharegpt/custom prompts.' },
  { flag: '--profile', dest: 'profile', kind: 'flag', defaultValue: false, help: 'Start and stop the server profiler around the run.' },
  { flag: '--plot-throughput', dest: 'plot_throughput', kind: 'flag', defaultValue: false, help: 'Write PNG plots of output tokens/s and concurrent requests per second next to the output file.' },
  { flag: '--profile-activities', dest: 'profile_activities', kind: 'str', nargs: '+', choices: ['CPU', 'GPU', 'CUDA_PROFILER'], defaultValue: ['CPU', 'GPU'], help: 'Profiler activities.' },
  { flag: '--profile-num-steps', dest: 'profile_num_steps', kind: 'int', range: AT_LEAST_ONE, defaultValue: null, help: 'Profile this many steps (then stop_profile is not sent).' },
  { flag: '--profile-by-stage', dest: 'profile_by_stage', kind: 'flag', defaultValue: false, help: 'Profile prefill and decode separately.' },
  { flag: '--profile-stages', dest: 'profile_stages', kind: 'str', nargs: '+', defaultValue: null, help: 'Stages to profile.' },
  { flag: '--profile-output-dir', dest: 'profile_output_dir', kind: 'str', defaultValue: null, help: 'Base directory of profiler traces.' },
  { flag: '--profile-prefix', dest: 'profile_prefix', kind: 'str', defaultValue: null, help: 'File name prefix of profiler traces.' },
  { flag: '--lora-name', dest: 'lora_name', kind: 'str', nargs: '*', defaultValue: null, help: 'LoRA adapter names to spread requests over.' },
  { flag: '--lora-request-distribution', dest: 'lora_request_distribution', kind: 'str', choices: ['uniform', 'distinct', 'skewed'], defaultValue: 'uniform', help: 'How requests pick an adapter.' },
  { flag: '--lora-zipf-alpha', dest: 'lora_zipf_alpha', kind: 'float', range: { above: 1 }, defaultValue: 1.5, help: 'Zipf exponent of the skewed distribution (> 1).' },
  { flag: '--prompt-suffix', dest: 'prompt_suffix', kind: 'str', defaultValue: '', help: 'Text appended to sharegpt/custom prompts.' },
  { flag: '--pd-separated', dest: 'pd_separated', kind: 'flag', defaultValue: false, help: 'Profile prefill/decode workers of a PD-separated deployment.' },
  { flag: '--profile-prefill-url', dest: 'profile_prefill_url', kind: 'str', nargs: '*', defaultValue: null, exclusiveGroup: 'pd-profile', help: 'Prefill worker URLs to profile.' },
  { flag: '--profile-decode-url', dest: 'profile_decode_url', kind: 'str', nargs: '*', defaultValue: null, exclusiveGroup: 'pd-profile', help: 'Decode worker URLs to profile.' },
  { flag: '--flush-cache', dest: 'flush_cache', kind: 'flag', defaultValue: false, help: 'POST /flush_cache after the warmup.' },
  { flag: '--warmup-requests', dest: 'warmup_requests', kind: 'int', range: NON_NEGATIVE, defaultValue: 1, help: 'Warmup requests sent before the measured run.' },
  { flag: '--tokenize-prompt', dest: 'tokenize_prompt', kind: 'flag', defaultValue: false, help: 'Send token ids instead of text (sglang backend only).' },
  { flag: '--gsp-num-groups', dest: 'gsp_num_groups', kind: 'int', range: AT_LEAST_ONE, defaultValue: 64, help: 'Shared-prefix groups (generated-shared-prefix).' },
  { flag: '--gsp-prompts-per-group', dest: 'gsp_prompts_per_group', kind: 'int', range: AT_LEAST_ONE, defaultValue: 16, help: 'Prompts per group.' },
  { flag: '--gsp-system-prompt-len', dest: 'gsp_system_prompt_len', kind: 'int', range: NON_NEGATIVE, defaultValue: 2048, help: 'Shared system prompt tokens.' },
  { flag: '--gsp-question-len', dest: 'gsp_question_len', kind: 'int', range: AT_LEAST_ONE, defaultValue: 128, help: 'Question tokens.' },
  { flag: '--gsp-output-len', dest: 'gsp_output_len', kind: 'int', range: AT_LEAST_ONE, defaultValue: 256, help: 'Output tokens.' },
  { flag: '--gsp-range-ratio', dest: 'gsp_range_ratio', kind: 'float', range: FRACTION, defaultValue: 1.0, help: 'Lower bound of sampled lengths as a fraction of the maximum.' },
  { flag: '--gsp-fast-prepare', dest: 'gsp_fast_prepare', kind: 'flag', defaultValue: false, help: 'Skip prompt tokenization and statistics.' },
  { flag: '--gsp-send-routing-key', dest: 'gsp_send_routing_key', kind: 'flag', defaultValue: false, help: 'Send X-SMG-Routing-Key per group.' },
  { flag: '--gsp-num-turns', dest: 'gsp_num_turns', kind: 'int', range: AT_LEAST_ONE, defaultValue: 1, help: 'Turns per conversation (> 1: multi-turn chat).' },
  { flag: '--gsp-ordered', dest: 'gsp_ordered', kind: 'flag', defaultValue: false, help: 'Keep generated requests in order.' },
  { flag: '--mooncake-slowdown-factor', dest: 'mooncake_slowdown_factor', kind: 'float', range: { above: 0 }, defaultValue: 1.0, help: 'Stretch factor of trace time.' },
  { flag: '--mooncake-num-rounds', dest: 'mooncake_num_rounds', kind: 'int', range: AT_LEAST_ONE, defaultValue: 1, help: 'Rounds per session.' },
  { flag: '--mooncake-workload', dest: 'mooncake_workload', kind: 'str', choices: ['mooncake', 'conversation', 'synthetic', 'toolagent'], defaultValue: 'conversation', help: 'Mooncake trace to replay.' },
  { flag: '--tag', dest: 'tag', kind: 'str', defaultValue: null, help: 'Tag copied into the JSONL record.' },
  { flag: '--header', dest: 'header', kind: 'str', nargs: '+', defaultValue: null, help: "Extra request headers, each as 'Key: Value' or Key=Value, sent on every request of the run." },
];
