/**
 * GuideLLM's `benchmarks.json`: the run's arguments (`args`) and one benchmark per load strategy
 * (`benchmarks[]`: its `config.strategy`, and `metrics` whose distributions are split by request
 * status: `{successful: {mean, median, std_dev, min, max, percentiles: {p001, ..., p999}}, ...}`).
 * Each benchmark becomes a run of its own, read from its successful requests.
 *
 * GuideLLM defines several metrics differently from bench_serving: its ITL is each request's
 * average gap and its TPOT includes the first token, both weighted by token count; its
 * throughputs are time-weighted rates over the measured window (warm-up and cool-down left out).
 */
import { basename } from 'node:path';
import { isObject } from '../../core/json-object.js';
import { definitionsFor } from '../metric-definitions.js';
import type { MetricValue, RunInput } from '../types.js';
import { contentHash } from './content-hash.js';
import { firstNumber, firstString, flattenSettings } from './flat-settings.js';
import { addStatistics } from './statistic-keys.js';

const WINDOW = 'over the measured window (warm-up and cool-down excluded)';

const DEFINITIONS: Readonly<Record<string, string>> = {
  itl_ms: '(last token - first token) / (output tokens - 1) of each request; statistics over requests weighted by output tokens - 1',
  tpot_ms: '(last token - request start) / output tokens of each request, first token included; statistics over requests weighted by output tokens',
  output_throughput: `time-weighted mean output token rate ${WINDOW}`,
  input_throughput: `time-weighted mean prompt token rate ${WINDOW}`,
  total_throughput: `time-weighted mean token rate (prompt + output) ${WINDOW}`,
  request_throughput: `time-weighted mean request completion rate ${WINDOW}`,
  concurrency: `time-weighted mean requests in flight ${WINDOW}`,
  duration: `seconds of the measured window (warm-up and cool-down excluded)`,
};

/** Distributions read with every statistic: GuideLLM name → catalog family, and the factor to milliseconds. */
const DISTRIBUTIONS: ReadonlyArray<readonly [name: string, family: string, scale: number]> = [
  ['time_to_first_token_ms', 'ttft_ms', 1],
  ['time_to_first_output_token_ms', 'ttfot_ms', 1],
  ['inter_token_latency_ms', 'itl_ms', 1],
  ['time_per_output_token_ms', 'tpot_ms', 1],
  ['request_latency', 'e2e_latency_ms', 1000],
];

/** Rates and concurrency: only their (time-weighted) mean is a figure of the run. */
const MEANS: ReadonlyArray<readonly [name: string, key: string]> = [
  ['output_tokens_per_second', 'output_throughput'],
  ['prompt_tokens_per_second', 'input_throughput'],
  ['tokens_per_second', 'total_throughput'],
  ['requests_per_second', 'request_throughput'],
  ['request_concurrency', 'concurrency'],
];

/** GuideLLM's percentile names (`p001` is the 0.1th) → statistic names. */
const PERCENTILES: Readonly<Record<string, string>> = { p001: 'p0.1', p01: 'p1', p05: 'p5', p999: 'p99.9', std_dev: 'std' };

/** True for a parsed GuideLLM report: a `benchmarks` list of objects with `metrics`. */
export function isGuidellmReport(json: Readonly<Record<string, unknown>>): boolean {
  return Array.isArray(json.benchmarks) && json.benchmarks.length > 0 && json.benchmarks.every((b) => isObject(b) && isObject(b.metrics));
}

/** The successful-request summary of a status-split distribution. */
function successful(distribution: unknown): Record<string, unknown> | null {
  return isObject(distribution) && isObject(distribution.successful) ? distribution.successful : null;
}

function metricsOf(benchmark: Readonly<Record<string, unknown>>): Record<string, MetricValue> {
  const source = benchmark.metrics as Record<string, unknown>;
  const metrics: Record<string, MetricValue> = {};
  const totals = source.request_totals;
  if (isObject(totals)) {
    for (const [status, key] of [['successful', 'completed'], ['errored', 'failed'], ['incomplete', 'incomplete']] as const) {
      if (typeof totals[status] === 'number') metrics[key] = totals[status];
    }
  }
  if (typeof benchmark.duration === 'number') metrics.duration = benchmark.duration;
  for (const [name, key] of [['prompt_token_count', 'total_input_tokens'], ['output_token_count', 'total_output_tokens']] as const) {
    const total = successful(source[name])?.total_sum;
    if (typeof total === 'number') metrics[key] = total;
  }
  for (const [name, key] of MEANS) {
    const mean = successful(source[name])?.mean;
    if (typeof mean === 'number') metrics[key] = mean;
  }
  for (const [name, family, scale] of DISTRIBUTIONS) {
    const summary = successful(source[name]);
    if (!summary) continue;
    const { percentiles, ...stats } = summary;
    addStatistics(metrics, family, { ...stats, ...(isObject(percentiles) ? percentiles : {}) }, scale, PERCENTILES);
  }
  return metrics;
}

/** The load a benchmark ran, in GuideLLM's terms plus bench_serving's where they mean the same. */
function strategyArgs(strategy: unknown): Record<string, unknown> {
  if (!isObject(strategy)) return {};
  const type = typeof strategy.type_ === 'string' ? strategy.type_ : typeof strategy.type === 'string' ? strategy.type : null;
  const args: Record<string, unknown> = { ...flattenSettings(strategy, 'strategy') };
  // N synchronous streams are bench_serving's unlimited rate capped at N in flight; one stream is N = 1.
  if (type === 'concurrent' && typeof strategy.streams === 'number') args.max_concurrency = strategy.streams;
  if (type === 'synchronous') args.max_concurrency = 1;
  if ((type === 'constant' || type === 'poisson') && typeof strategy.rate === 'number') args.request_rate = strategy.rate;
  return args;
}

/** ` (concurrent 8)`, ` (poisson 2.5)`, ` (synchronous)`; empty when the benchmark does not say. */
function strategyTitle(settings: Readonly<Record<string, unknown>>): string {
  const type = firstString(settings, ['strategy.type_', 'strategy.type']);
  const amount = firstNumber(settings, ['strategy.streams', 'strategy.rate']);
  return type === null ? '' : ` (${type}${amount === null ? '' : ` ${amount}`})`;
}

/** One run per benchmark of a parsed GuideLLM report. */
export function readGuidellmReport(json: Readonly<Record<string, unknown>>, file: string): RunInput[] {
  const reportArgs = isObject(json.args) ? flattenSettings(json.args) : {};
  const version = firstString(isObject(json.metadata) ? flattenSettings(json.metadata) : {}, ['guidellm_version', 'version']);
  return (json.benchmarks as Record<string, unknown>[]).map((benchmark, index) => {
    const config = isObject(benchmark.config) ? benchmark.config : isObject(benchmark.args) ? benchmark.args : {};
    const settings = flattenSettings(config);
    const args = { ...reportArgs, ...strategyArgs(config.strategy) };
    const data = firstString(reportArgs, ['data']);
    if (data !== null) args.dataset_name = data;
    const metrics = metricsOf(benchmark);
    const warnings = Object.keys(metrics).length === 0 ? ['no GuideLLM metric could be read'] : [];
    return {
      // A benchmark's own JSON identifies it; the report around it may hold other benchmarks too.
      source: { kind: 'ingest', file, contentHash: contentHash(JSON.stringify(benchmark)), title: `${basename(file)} benchmark ${index + 1}${strategyTitle(settings)}` },
      metrics,
      metricDefinitions: definitionsFor(metrics, DEFINITIONS),
      args,
      model: firstString(reportArgs, ['model']) ?? firstString(settings, ['backend.model', 'backend_model', 'model']),
      toolVersion: version ? `guidellm ${version}` : 'guidellm',
      warnings,
    } satisfies RunInput;
  });
}
