/**
 * `vllm bench serve --save-result` JSON (one object; `--append-result` writes one per line). Its
 * metric code is where bench_serving's came from, so most keys mean what bench_serving's mean;
 * two carry another name for the same figure (`*_e2el_ms`, `total_token_throughput`) and are
 * stored under bench_serving's. Its TTFT differs: vLLM stops the clock at the first streamed chunk
 * that has `choices`, even one with no text (a chat reply's role-only chunk), bench_serving at the
 * first chunk with output.
 *
 * With `--save-detailed` the file holds per-request arrays; `start_times` are the client's
 * monotonic clock readings and are stored relative to the first.
 */
import { definitionsFor } from '../metric-definitions.js';
import type { MetricValue, RunInput } from '../types.js';
import { requestsFromDetails } from './jsonl.js';

const DEFINITIONS: Readonly<Record<string, string>> = {
  ttft_ms: 'time from sending a request to its first streamed chunk that has choices, even one without text; statistics over successful requests',
};

/** Keys that describe the run rather than measure it. */
const ARG_KEYS = new Set([
  'date', 'endpoint_type', 'backend', 'label', 'model_id', 'tokenizer_id', 'num_prompts', 'request_rate', 'burstiness', 'max_concurrency',
  'ramp_up_strategy', 'ramp_up_start_rps', 'ramp_up_end_rps',
]);

/** Arguments that bench_serving's records also keep among their metrics (tables and comparisons read them there). */
const ALSO_METRICS = new Set(['backend', 'request_rate', 'max_concurrency']);

/** True for a parsed vLLM result: it has keys bench_serving's records never have (and no `servebench` key, which only servebench writes). */
export function isVllmResult(record: Readonly<Record<string, unknown>>): boolean {
  if ('servebench' in record) return false;
  return ['model_id', 'endpoint_type', 'burstiness', 'mean_e2el_ms', 'total_token_throughput'].some((key) => key in record);
}

/** bench_serving's key for a vLLM metric of the same meaning. */
function catalogKey(key: string): string {
  if (key === 'total_token_throughput') return 'total_throughput';
  return key.replace(/_e2el_ms$/, '_e2e_latency_ms');
}

/** vLLM writes infinity as the string `"inf"`. */
function rate(value: unknown): unknown {
  return value === 'inf' ? Infinity : value;
}

/** `20250101-120000` → `2025-01-01T12:00:00` (local time of the machine that ran it: vLLM writes no zone). */
function startedAt(date: unknown): string | null {
  const m = typeof date === 'string' ? /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/.exec(date) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}` : null;
}

/** Per-request records, with start times moved to seconds after the first send. */
function requests(record: Readonly<Record<string, unknown>>, warnings: string[]): RunInput['requests'] {
  const starts = Array.isArray(record.start_times) ? record.start_times.filter((t): t is number => typeof t === 'number') : [];
  // A loop, not Math.min(...starts): spreading a large run's start times overflows the call stack.
  let first = Infinity;
  for (const t of starts) first = Math.min(first, t);
  const relative = Array.isArray(record.start_times) ? record.start_times.map((t) => (typeof t === 'number' ? t - first : t)) : undefined;
  return requestsFromDetails({ ...record, start_times: relative }, warnings);
}

/** The run of one parsed vLLM result (the caller gives its source: file, hash, title). */
export function readVllmResult(record: Readonly<Record<string, unknown>>, source: RunInput['source']): RunInput {
  const args: Record<string, unknown> = {};
  const metrics: Record<string, MetricValue> = {};
  for (const [key, raw] of Object.entries(record)) {
    const value = key === 'request_rate' ? rate(raw) : raw;
    // `--metadata KEY=VALUE` adds string keys of the user's: they describe the run too.
    const describes = ARG_KEYS.has(key) || typeof value === 'string';
    if (describes) args[key === 'model_id' ? 'model' : key] = value;
    const measured = !describes && (typeof value === 'number' || value === null);
    if (measured || ALSO_METRICS.has(key)) metrics[catalogKey(key)] = value as MetricValue;
  }
  const warnings: string[] = [];
  return {
    source,
    metrics,
    metricDefinitions: definitionsFor(metrics, DEFINITIONS),
    args,
    model: typeof record.model_id === 'string' ? record.model_id : null,
    startedAt: startedAt(record.date),
    toolVersion: 'vllm bench serve',
    requests: requests(record, warnings),
    warnings,
  };
}
