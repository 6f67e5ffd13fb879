/**
 * AIPerf (`profile_export_aiperf.json` / `.csv`) and GenAI-Perf (`profile_export_genai_perf.json` /
 * `.csv`) summary exports. AIPerf kept GenAI-Perf's layout: each metric is an object with its unit
 * and statistics (`{"unit": "ms", "avg": ..., "p99": ..., "min": ...}`) and the run's configuration
 * sits under `input_config`; the CSV has a statistics table (`Metric,avg,min,max,p99,...`, names
 * like `Time To First Token (ms)`) and a `Metric,Value` table of single values.
 *
 * Both tools define ITL as each request's (latency - TTFT) / (output tokens - 1), which is what
 * bench_serving calls TPOT, and count output tokens with the client's tokenizer: those metrics are
 * stored with these definitions, under the tools' own names (`mean_itl_ms`), never renamed into
 * bench_serving's.
 */
import { basename } from 'node:path';
import { isObject } from '../../core/json-object.js';
import { definitionsFor } from '../metric-definitions.js';
import type { MetricValue, RunInput } from '../types.js';
import { contentHash } from './content-hash.js';
import { csvBlocks } from './csv-table.js';
import { firstNumber, firstString, flattenSettings } from './flat-settings.js';
import { addStatistics } from './statistic-keys.js';

export type ProfileExportTool = 'aiperf' | 'genai-perf';

const DEFINITIONS: Readonly<Record<string, string>> = {
  itl_ms: '(latency - TTFT) / (output tokens - 1) of each request, tokens counted by the client tokenizer; statistics over requests (bench_serving calls this TPOT)',
  output_throughput: 'output tokens counted by the client tokenizer (reasoning included) / (first request sent to last response received)',
};

/** Catalog keys of the single-value metrics (the `avg` of a metric with no distribution). */
const SINGLE_VALUES: Readonly<Record<string, string>> = {
  request_throughput: 'request_throughput',
  output_token_throughput: 'output_throughput',
  request_count: 'completed',
  error_request_count: 'failed',
  benchmark_duration: 'duration',
  total_osl: 'total_output_tokens',
  total_output_sequence_length: 'total_output_tokens',
  total_isl: 'total_input_tokens',
  total_input_sequence_length: 'total_input_tokens',
  // AIPerf's total_output_tokens leaves reasoning tokens out; bench_serving's total counts them.
  total_output_tokens: 'total_output_tokens_without_reasoning',
  goodput: 'request_goodput',
  request_goodput: 'request_goodput',
};

/** Catalog families of the latency distributions (the rest keep the tool's name). */
const LATENCY_FAMILIES: Readonly<Record<string, string>> = {
  time_to_first_token: 'ttft',
  time_to_second_token: 'ttst',
  inter_token_latency: 'itl',
  inter_chunk_latency: 'inter_chunk_latency',
  request_latency: 'e2e_latency',
};

const MS_PER_UNIT: Readonly<Record<string, number>> = { ms: 1, s: 1000, sec: 1000, seconds: 1000, us: 1e-3, ns: 1e-6 };

/** One metric of an export: its name (snake_case), unit and statistics. */
interface ExportedMetric {
  name: string;
  unit: string;
  stats: Record<string, unknown>;
}

function isExportedMetric(value: unknown): value is { unit: string } & Record<string, unknown> {
  return isObject(value) && typeof value.unit === 'string';
}

/** The tool that wrote a parsed JSON export, or null when the object is not one. */
export function profileExportTool(json: Readonly<Record<string, unknown>>): ProfileExportTool | null {
  const metrics = ['request_latency', 'time_to_first_token', 'request_throughput', 'output_token_throughput'];
  if (!metrics.some((m) => isExportedMetric(json[m]))) return null;
  return 'aiperf_version' in json || 'schema_version' in json || isObject((json.input_config as Record<string, unknown> | undefined)?.loadgen)
    ? 'aiperf'
    : 'genai-perf';
}

/** Metrics of an export under catalog keys; a latency in a unit this does not know is a warning. */
function catalogMetrics(exported: readonly ExportedMetric[], warnings: string[]): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {};
  for (const { name, unit, stats } of exported) {
    const single = SINGLE_VALUES[name];
    const msPerUnit = MS_PER_UNIT[unit.toLowerCase()];
    const family = LATENCY_FAMILIES[name];
    if ((family !== undefined || name === 'benchmark_duration') && msPerUnit === undefined) {
      warnings.push(`${name} is in the unknown unit '${unit}'; not read`);
    } else if (single !== undefined) {
      // The duration is kept in seconds, as bench_serving's.
      if (typeof stats.avg === 'number') metrics[single] = name === 'benchmark_duration' ? (stats.avg * msPerUnit!) / 1000 : stats.avg;
    } else if (family !== undefined || msPerUnit !== undefined) {
      addStatistics(metrics, `${family ?? name}_ms`, stats, msPerUnit);
    } else {
      addStatistics(metrics, name, stats);
    }
  }
  return metrics;
}

/** Arguments a run's `input_config` states: every setting as given, plus the load in bench_serving's names. */
function argsFromConfig(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const settings = flattenSettings(config);
  const args: Record<string, unknown> = { ...settings };
  const concurrency = firstNumber(settings, ['concurrency', 'loadgen.concurrency']);
  if (concurrency !== null) args.max_concurrency = concurrency;
  const rate = firstNumber(settings, ['request_rate', 'loadgen.request_rate']);
  if (rate !== null) args.request_rate = rate;
  return args;
}

function runInput(tool: ProfileExportTool, metrics: Record<string, MetricValue>, text: string, file: string, config: Record<string, unknown> | null, version: string | null, warnings: string[]): RunInput {
  const args = config ? argsFromConfig(config) : null;
  const model = args ? firstString(args, ['model', 'endpoint.model_names', 'model_names', 'endpoint.model']) : null;
  if (Object.keys(metrics).length === 0) warnings.push(`no ${tool} metric could be read`);
  return {
    source: { kind: 'ingest', file, contentHash: contentHash(text), title: basename(file) },
    metrics,
    metricDefinitions: definitionsFor(metrics, DEFINITIONS),
    args,
    model,
    toolVersion: version ? `${tool} ${version}` : tool,
    warnings,
  };
}

/** The run of a parsed AIPerf or GenAI-Perf JSON export. */
export function readProfileExportJson(json: Readonly<Record<string, unknown>>, tool: ProfileExportTool, text: string, file: string): RunInput {
  const exported: ExportedMetric[] = [];
  for (const [name, value] of Object.entries(json)) {
    if (name === 'telemetry_data' || !isExportedMetric(value)) continue;
    const { unit, ...stats } = value;
    exported.push({ name, unit, stats });
  }
  const warnings: string[] = [];
  const metrics = catalogMetrics(exported, warnings);
  const config = isObject(json.input_config) ? json.input_config : null;
  const version = typeof json.aiperf_version === 'string' ? json.aiperf_version : null;
  if (json.was_cancelled === true) warnings.push(`${tool} says the benchmark was cancelled before it finished`);
  return runInput(tool, metrics, text, file, config, version, warnings);
}

/** `Time To First Token (ms)` → `{ name: 'time_to_first_token', unit: 'ms' }`. */
function nameAndUnit(display: string): { name: string; unit: string } {
  const m = /^(.*?)\s*(?:\(([^()]*)\))?\s*$/.exec(display)!;
  return { name: m[1]!.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, ''), unit: (m[2] ?? '').trim() };
}

/** GenAI-Perf writes `1,234.56`; an empty cell is not a value. */
function csvNumber(cell: string | undefined): number | undefined {
  if (cell === undefined || cell.trim() === '') return undefined;
  const n = Number(cell.replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The tool that wrote a CSV export, from its statistics header: AIPerf's has `p1`...`std`,
 * GenAI-Perf's `avg,min,max,p99,p95,p90,p75,p50,p25`. Null for any other CSV.
 */
export function profileExportCsvTool(records: readonly string[][]): ProfileExportTool | null {
  const header = records.find((r) => r.some((f) => f.trim() !== ''))?.map((f) => f.trim());
  if (!header || header[0] !== 'Metric' || !(header.includes('avg') || header.includes('Value'))) return null;
  return header.includes('std') || header.includes('p1') ? 'aiperf' : 'genai-perf';
}

/** The run of an AIPerf or GenAI-Perf CSV export (the telemetry table, if any, is not read). */
export function readProfileExportCsv(records: readonly string[][], tool: ProfileExportTool, text: string, file: string): RunInput {
  const exported: ExportedMetric[] = [];
  for (const [header, ...rows] of csvBlocks(records)) {
    if (header![0] !== 'Metric') continue;
    const columns = header!.slice(1).map((c) => (c === 'Value' ? 'avg' : c));
    for (const row of rows) {
      const stats: Record<string, unknown> = {};
      columns.forEach((stat, i) => {
        const value = csvNumber(row[i + 1]);
        if (value !== undefined) stats[stat] = value;
      });
      exported.push({ ...nameAndUnit(row[0] ?? ''), stats });
    }
  }
  const warnings: string[] = [];
  return runInput(tool, catalogMetrics(exported, warnings), text, file, null, null, warnings);
}

