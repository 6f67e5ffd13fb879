/**
 * What a stored metric means. Benchmark tools share metric names but not their meanings:
 * bench_serving's ITL is every gap between streamed chunks, AIPerf's and GenAI-Perf's is each
 * request's average gap, GuideLLM's TPOT includes the first token. A run stores, for each metric
 * whose meaning is not bench_serving's, the definition of the tool that measured it; a metric
 * with no stored definition has bench_serving's (servebench measures exactly as bench_serving).
 *
 * A definition names the per-request (or per-gap) quantity and what the statistics are taken
 * over; the statistic itself (mean, median, p99) is the first part of the metric's key.
 */

/** Metric key → definition, for the metrics whose definition is not bench_serving's. */
export type MetricDefinitions = Record<string, string>;

const STATISTIC_PREFIX = /^(mean|median|std|min|max|p\d+(?:\.\d+)?)_/;

/** The measured quantity of a metric key, its statistic removed: `p99_itl_ms` → `itl_ms`. */
export function metricFamily(key: string): string {
  return key.replace(STATISTIC_PREFIX, '');
}

/** bench_serving's definitions, by metric family (servebench's `bench` measures the same way). */
export const BENCH_SERVING_DEFINITIONS: Readonly<Record<string, string>> = {
  ttft_ms: 'time from sending a request to its first streamed output; statistics over successful requests',
  tpot_ms: '(latency - TTFT) / (output tokens - 1) of each request with more than one output token; statistics over those requests',
  itl_ms: 'every gap between consecutive streamed chunks, pooled over all requests; statistics over the gaps',
  e2e_latency_ms: 'time from sending a request to its last output; statistics over successful requests',
  output_throughput: 'output tokens (server counts) of successful requests / benchmark duration (first send to last completion)',
  input_throughput: 'input tokens of successful requests / benchmark duration',
  total_throughput: '(input + output tokens) of successful requests / benchmark duration',
  request_throughput: 'successful requests / benchmark duration',
  duration: 'seconds from the first request sent to the last completed',
  concurrency: 'sum of request latencies / benchmark duration (mean requests in flight)',
  output_throughput_per_card: 'output token throughput / cards',
};

/** The definition of `key` in a run with these stored definitions; null for a metric of unknown meaning. */
export function definitionOf(definitions: MetricDefinitions | undefined, key: string): string | null {
  return definitions?.[key] ?? BENCH_SERVING_DEFINITIONS[metricFamily(key)] ?? null;
}

/**
 * The stored definitions of a tool's metrics: each key of `metrics` whose family the tool
 * defines differently from bench_serving gets the tool's definition.
 */
export function definitionsFor(metrics: Readonly<Record<string, unknown>>, byFamily: Readonly<Record<string, string>>): MetricDefinitions {
  const definitions: MetricDefinitions = {};
  for (const key of Object.keys(metrics)) {
    const definition = byFamily[metricFamily(key)];
    if (definition !== undefined && definition !== BENCH_SERVING_DEFINITIONS[metricFamily(key)]) definitions[key] = definition;
  }
  return definitions;
}
