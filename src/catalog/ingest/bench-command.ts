/**
 * Reads a `python -m sglang.bench_serving ...` command line into the arguments it states, keyed
 * like bench_serving's Namespace (snake_case). Unique-prefix abbreviations resolve as argparse
 * does (`--num-prompt` → `num_prompts`). Options the command does not give stay absent: their
 * defaults are bench_serving's business, not a fact of the log.
 */
import { parseFlags } from './shell-command.js';

/** bench_serving's options in definition order (spec §1.2). */
const OPTIONS = [
  'backend', 'base_url', 'host', 'port', 'dataset_name', 'dataset_path', 'model', 'served_model_name', 'tokenizer',
  'num_prompts', 'sharegpt_output_len', 'sharegpt_context_len', 'random_input_len', 'random_output_len',
  'random_range_ratio', 'image_count', 'image_resolution', 'random_image_count', 'image_format', 'image_content',
  'request_rate', 'use_trace_timestamps', 'max_concurrency', 'output_file', 'output_details', 'print_requests',
  'disable_tqdm', 'disable_stream', 'return_logprob', 'return_routed_experts', 'seed', 'disable_ignore_eos',
  'extra_request_body', 'apply_chat_template', 'profile', 'plot_throughput', 'profile_activities',
  'profile_num_steps', 'profile_by_stage', 'profile_stages', 'profile_output_dir', 'profile_prefix', 'lora_name',
  'lora_request_distribution', 'lora_zipf_alpha', 'prompt_suffix', 'pd_separated', 'profile_prefill_url',
  'profile_decode_url', 'flush_cache', 'warmup_requests', 'tokenize_prompt', 'gsp_num_groups',
  'gsp_prompts_per_group', 'gsp_system_prompt_len', 'gsp_question_len', 'gsp_output_len', 'gsp_range_ratio',
  'gsp_fast_prepare', 'gsp_send_routing_key', 'gsp_num_turns', 'gsp_ordered', 'mooncake_slowdown_factor',
  'mooncake_num_rounds', 'mooncake_workload', 'tag', 'header',
] as const;

const LIST_OPTIONS = new Set(['profile_activities', 'profile_stages', 'lora_name', 'profile_prefill_url', 'profile_decode_url', 'header']);
const STRING_OPTIONS = new Set(['backend', 'base_url', 'host', 'dataset_name', 'dataset_path', 'model', 'served_model_name', 'tokenizer', 'output_file', 'extra_request_body', 'tag', 'prompt_suffix', 'image_resolution', 'image_format', 'image_content', 'profile_output_dir', 'profile_prefix', 'lora_request_distribution', 'mooncake_workload']);

/** Resolves an option name as argparse would: exact, else a unique prefix; null when unknown or ambiguous. */
export function resolveBenchOption(flag: string): string | null {
  const dest = flag.replace(/^--/, '').replace(/-/g, '_');
  if ((OPTIONS as readonly string[]).includes(dest)) return dest;
  const matches = OPTIONS.filter((o) => o.startsWith(dest));
  return matches.length === 1 ? matches[0]! : null;
}

function convert(dest: string, value: string | true): unknown {
  if (value === true) return LIST_OPTIONS.has(dest) ? [] : true;
  if (LIST_OPTIONS.has(dest)) return value.split(' ');
  if (STRING_OPTIONS.has(dest)) return value;
  if (/^[-+]?(inf|infinity)$/i.test(value)) return value.startsWith('-') ? -Infinity : Infinity;
  const n = Number(value);
  return value !== '' && Number.isFinite(n) ? n : value;
}

/** The arguments a bench command states (snake_case); unknown options become warnings. */
export function parseBenchCommand(args: readonly string[], warnings: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(parseFlags(args).flags)) {
    const dest = resolveBenchOption(flag);
    if (!dest) {
      warnings.push(`bench command option ${flag} is not a bench_serving option; ignored`);
      continue;
    }
    out[dest] = convert(dest, value);
  }
  return out;
}
