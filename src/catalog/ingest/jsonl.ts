/**
 * Reads bench_serving's JSONL result records (and servebench's, which add keys): Python's
 * `json.dumps` writes `Infinity`/`NaN` tokens that `JSON.parse` rejects, so they are read here.
 * With `--output-details` the record carries per-request arrays, which become request records.
 */
import { isObject } from '../../core/json-object.js';
import { PyFloat } from '../../core/pyformat.js';
import { pythonJsonLoads } from '../../core/pyjson.js';
import type { PyValue } from '../../core/pyrepr.js';
import type { MetricValue, RequestRecord, ServerMetricsRecord, ShardRecord } from '../types.js';
import { serverReportFrom, type RepeatMembership } from '../../bench/index.js';
import { serverInfoWithWorkers } from './server-bodies.js';

/** Keys of the record that are bench arguments rather than results (spec §7.2). */
const ARG_KEYS = ['tag', 'backend', 'dataset_name', 'request_rate', 'max_concurrency', 'sharegpt_output_len', 'random_input_len', 'random_output_len', 'random_range_ratio'];
/** Per-request arrays (`--output-details`); `generated_texts` is not kept. */
const DETAIL_KEYS = new Set(['input_lens', 'output_lens', 'ttfts', 'itls', 'generated_texts', 'errors', 'latencies', 'start_times', 'failure_causes']);

/** Python floats (kept apart by `pythonJsonLoads` / the JSONL writer for exact output) as plain numbers. */
export function toPlain(value: PyValue): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, PyValue>).map(([k, v]) => [k, toPlain(v)]));
  }
  return value;
}

/** Parses one JSON value that may contain Python's `Infinity`, `-Infinity` and `NaN` tokens. */
export function parsePythonJson(text: string): unknown {
  return toPlain(pythonJsonLoads(text.trim()));
}

/** What one JSONL record holds, split the way the catalog stores it. */
export interface JsonlRun {
  args: Record<string, unknown>;
  metrics: Record<string, MetricValue>;
  serverInfo: unknown;
  requests: RequestRecord[];
  /** Labels a servebench record carries (`servebench.labels`). */
  labels: Record<string, string>;
  /** True for a servebench record (it has the `servebench` key). */
  fromServebench: boolean;
  /** `servebench.server_side.metrics`: the server's /metrics over the run, when bench read them. */
  serverMetrics: ServerMetricsRecord | null;
  /** `servebench.repeat`: the run's place in a repeated measurement (`bench --num-runs`), or null. */
  repeat: RepeatMembership | null;
  /** `servebench.shards`: the shards of a sharded run (`bench --shards K`), or null. */
  shards: ShardRecord[] | null;
  warnings: string[];
}

/** The `servebench` keys that are no figures: read apart, never flattened into metrics. */
const STRUCTURED_KEYS = new Set(['repeat', 'repeat_summary', 'router_workers_server_info', 'shards']);

/** `servebench.repeat` of a record, when it is what bench writes (a group id, run k of N). */
function repeatOf(record: Record<string, unknown>): RepeatMembership | null {
  const repeat = isObject(record.servebench) ? record.servebench.repeat : undefined;
  if (!isObject(repeat)) return null;
  const { group, run, runs } = repeat;
  const whole = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
  return typeof group === 'string' && group !== '' && whole(run) && whole(runs) && run <= runs ? { group, run, runs } : null;
}

/** `servebench.shards` of a record, when each entry is what bench writes; null otherwise (with a warning when malformed). */
function shardsOf(record: Record<string, unknown>, warnings: string[]): ShardRecord[] | null {
  const shards = isObject(record.servebench) ? record.servebench.shards : undefined;
  if (shards === undefined) return null;
  const numberOrNull = (value: unknown): number | null | undefined => (value === null ? null : typeof value === 'number' ? value : undefined);
  const read = Array.isArray(shards)
    ? shards.map((shard): ShardRecord | null => {
        if (!isObject(shard)) return null;
        const { rank, host, pid, requests, clock_offset_ms: offset, clock_offset_bound_ms: bound, client_self_check: line, saturated } = shard;
        const maxConcurrency = numberOrNull(shard.max_concurrency);
        const sendLag = numberOrNull(shard.send_lag_p99_ms);
        if (typeof rank !== 'number' || typeof host !== 'string' || typeof pid !== 'number' || typeof requests !== 'number') return null;
        if (typeof offset !== 'number' || typeof bound !== 'number' || typeof line !== 'string' || typeof saturated !== 'boolean') return null;
        if (maxConcurrency === undefined || sendLag === undefined) return null;
        return { rank, host, pid, requests, maxConcurrency, sendLagP99Ms: sendLag, clockOffsetMs: offset, clockOffsetBoundMs: bound, selfCheck: line, saturated };
      })
    : [null];
  if (read.some((shard) => shard === null)) {
    warnings.push('servebench.shards dropped: not the per-shard section bench writes');
    return null;
  }
  return read as ShardRecord[];
}

/**
 * The record bench appends after repeated runs (`servebench.repeat_summary`): the runs' summary,
 * no run of its own.
 */
export function isRepeatedRunsRecord(record: Record<string, unknown>): boolean {
  return isObject(record.servebench) && isObject(record.servebench.repeat_summary);
}

/** A run's server readings take a few KB a minute; beyond this a file's are not what bench wrote. */
const MAX_SERVER_METRICS_CHARS = 4_000_000;

/** `servebench.server_side.metrics` of a record, when the run read the server's /metrics and they are of a sane size. */
function serverMetricsOf(record: Record<string, unknown>, warnings: string[]): ServerMetricsRecord | null {
  const side = isObject(record.servebench) ? record.servebench.server_side : undefined;
  const metrics = isObject(side) ? side.metrics : undefined;
  if (!isObject(metrics)) return null;
  const size = JSON.stringify(metrics).length;
  if (size > MAX_SERVER_METRICS_CHARS) {
    warnings.push(`servebench.server_side.metrics dropped: ${size} characters, more than the ${MAX_SERVER_METRICS_CHARS} a bench run writes`);
    return null;
  }
  return metrics;
}

/** The client self-check's line: a text figure of the `servebench` key, kept as a metric beside its numbers. */
export const SELF_CHECK_METRIC = 'client_self_check';
/** The started sim's self-check line (`bench --sim`), kept the same way. */
export const SIM_SELF_CHECK_METRIC = 'sim_self_check';
/** The text figures: sentences, shown apart from the numbers. */
export const TEXT_METRICS: ReadonlySet<string> = new Set([SELF_CHECK_METRIC, SIM_SELF_CHECK_METRIC]);

/**
 * Flattens servebench's own figures (the record's `servebench` key) into metrics:
 * `queue_time_ms.mean` → `mean_queue_time_ms`, `failures_by_cause.timeout` → `failed_timeout`, ...
 */
function readServebenchKey(extra: Record<string, unknown>, metrics: Record<string, MetricValue>, labels: Record<string, string>, args: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(extra)) {
    if (STRUCTURED_KEYS.has(key)) continue;
    if (value === null || typeof value === 'number' || (TEXT_METRICS.has(key) && typeof value === 'string')) {
      if (key !== 'sim') metrics[key] = value;
    } else if (key === 'labels' && isObject(value)) {
      for (const [k, v] of Object.entries(value)) labels[k] = String(v);
    } else if (key === 'sim' && typeof value === 'string') {
      args.sim = value;
    } else if (key === 'failures_by_cause' && isObject(value)) {
      for (const [cause, count] of Object.entries(value)) if (typeof count === 'number') metrics[`failed_${cause}`] = count;
    } else if (isObject(value)) {
      const base = key.replace(/_ms$/, '');
      const unit = key.endsWith('_ms') ? '_ms' : '';
      for (const [stat, v] of Object.entries(value)) if (typeof v === 'number') metrics[`${stat}_${base}${unit}`] = v;
    }
  }
}

function numbers(value: unknown): (number | null)[] | null {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? v : null)) : null;
}

/** Per-request records from the detail arrays (`ttfts`, `itls`, `input_lens`, ...); empty when the record has none. */
export function requestsFromDetails(record: Record<string, unknown>, warnings: string[]): RequestRecord[] {
  const ttfts = numbers(record.ttfts);
  if (!ttfts) return [];
  // servebench's: what each response said about itself, under meta_info's names.
  const serverReports = isObject(record.servebench) && Array.isArray(record.servebench.request_server) ? record.servebench.request_server : [];
  const inputLens = numbers(record.input_lens) ?? [];
  const outputLens = numbers(record.output_lens) ?? [];
  const latencies = numbers(record.latencies) ?? [];
  const startTimes = numbers(record.start_times) ?? [];
  const itls = Array.isArray(record.itls) ? record.itls : [];
  const errors = Array.isArray(record.errors) ? record.errors : [];
  const causes = Array.isArray(record.failure_causes) ? record.failure_causes : [];
  if ([inputLens, outputLens, itls, errors].some((a) => a.length !== ttfts.length)) {
    warnings.push('per-request arrays have different lengths; missing entries left empty');
  }
  return ttfts.map((ttft, i) => {
    const error = typeof errors[i] === 'string' ? (errors[i] as string) : '';
    const server = serverReportFrom(serverReports[i]);
    return {
      ...(Object.keys(server).length > 0 ? { server: { ...server } as Record<string, number> } : {}),
      startTime: startTimes[i] ?? null,
      ttft,
      latency: latencies[i] ?? null,
      itl: numbers(itls[i])?.filter((x): x is number => x !== null) ?? [],
      promptLen: inputLens[i] ?? null,
      outputLen: outputLens[i] ?? null,
      success: error === '',
      error,
      cause: typeof causes[i] === 'string' ? (causes[i] as string) : null,
    };
  });
}

/** The server info a record reports: its `/get_server_info` body with servebench's `router_workers_server_info` beside it. */
function serverInfoOf(record: Record<string, unknown>): unknown {
  return serverInfoWithWorkers(record.server_info ?? null, isObject(record.servebench) ? record.servebench.router_workers_server_info : undefined);
}

/** Splits a parsed record into arguments, metrics, server info and per-request records. */
export function readJsonlRecord(record: Record<string, unknown>): JsonlRun {
  const warnings: string[] = [];
  const args: Record<string, unknown> = {};
  const metrics: Record<string, MetricValue> = {};
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'server_info' || DETAIL_KEYS.has(key)) continue;
    if (key === 'servebench' && isObject(value)) {
      readServebenchKey(value, metrics, labels, args);
      continue;
    }
    if (key === 'args' && value && typeof value === 'object') Object.assign(args, value);
    else if (ARG_KEYS.includes(key)) args[key] = value;
    if (ARG_KEYS.includes(key) && key !== 'backend' && key !== 'request_rate' && key !== 'max_concurrency') continue;
    if (value === null || typeof value === 'number' || typeof value === 'string') metrics[key] = value;
  }
  const fromServebench = isObject(record.servebench);
  const serverMetrics = serverMetricsOf(record, warnings);
  return { args, metrics, serverInfo: serverInfoOf(record), requests: requestsFromDetails(record, warnings), labels, fromServebench, serverMetrics, repeat: repeatOf(record), shards: shardsOf(record, warnings), warnings };
}
