/**
 * The JSONL result record (spec §7.2): bench_serving's keys in its order and with its int/float
 * types, the `--output-details` arrays, then servebench's own figures under one `servebench` key
 * appended last so Python readers of the reference keys are unaffected.
 */
import { PyFloat, pyFloats } from '../../core/pyformat.js';
import { shardRecordKey, type ShardSummary } from '../shards/summary.js';
import type { PyValue } from '../../core/pyrepr.js';
import { redactText, redactValue } from '../../core/redact.js';
import type { BenchArgs } from '../args/types.js';
import type { BenchmarkMetrics, ServebenchExtras } from '../metrics/types.js';
import type { RepeatedRunsSummary, RepeatMembership } from '../metrics/repeated-runs.js';
import type { ClientVerdict } from '../selfcheck/verdict.js';
import type { RequestOutput } from '../types.js';
import { hasServerSide, type ServerSide } from '../server-metrics/server-side.js';
import type { GaugeSummary, ServerMetricsSummary } from '../server-metrics/summary.js';
import { SERVER_REPORT_FIELDS } from '../backends/server-report.js';

/** The arguments a record carries. */
export type RecordArgs = Pick<
  BenchArgs,
  | 'tag'
  | 'backend'
  | 'dataset_name'
  | 'request_rate'
  | 'use_trace_timestamps'
  | 'max_concurrency'
  | 'sharegpt_output_len'
  | 'random_input_len'
  | 'random_output_len'
  | 'random_range_ratio'
  | 'output_details'
  | 'extensions'
>;

/** A prediction's expected error: the model's median |relative error| per headline metric on runs it was not fitted to (0.12 = 12%). */
export interface ExpectedError {
  meanTpot: number;
  outputThroughput: number;
  meanTtft: number;
}

export interface ResultRecordInput {
  args: RecordArgs;
  metrics: BenchmarkMetrics;
  /**
   * The `/get_server_info` body (parse it with pythonJsonLoads to keep floats), or null. SGLang
   * reports its launch args there, `api_key` included; the record keeps them redacted.
   */
  serverInfo: PyValue;
  /**
   * Behind a router whose `/get_server_info` is its own counters: each worker's body by role
   * (`router_workers_server_info` in servebench's section, redacted as `server_info` is).
   */
  routerWorkers?: Record<string, PyValue[]> | null;
  /** All outputs in dataset order; read only for `--output-details`. */
  outputs: readonly RequestOutput[];
  extras: ServebenchExtras;
  /** The server's side of a measured run (`server_side` in the record when it has anything to say). */
  server?: ServerSide | null;
  /**
   * Set for a prediction (`predict`, `sweep --predict`): the performance model's cross-validated
   * error, null before its first fit. Measurements leave it out and their record has no such key.
   */
  prediction?: { expectedError: ExpectedError | null };
  /** A measurement's client self-check (predictions have none, and their record no such keys). */
  selfCheck?: ClientVerdict;
  /** Wall seconds per engine second of the `--sim` the run measured (its times are in engine time). */
  simTimeScale?: number;
  /** The started sim's self-check line (`bench --sim`), a warning when it fell behind its model. */
  simSelfCheck?: string;
  /** With `--num-runs` N ≥ 2: which run of which repeated measurement this is. */
  repeat?: RepeatMembership | null;
  /** A sharded run's shards (`servebench.shards`). */
  shards?: ShardSummary[] | null;
}

/** An ordered JSON object ready for `pythonJsonDumps`. */
export type JsonRecord = Record<string, PyValue>;

const float = (value: number): PyFloat => new PyFloat(value);
const floatOrNull = (value: number | null): PyFloat | null => (value === null ? null : new PyFloat(value));

function detailKeys(outputs: readonly RequestOutput[]): JsonRecord {
  return {
    input_lens: outputs.map((output) => output.promptLen),
    output_lens: outputs.map((output) => (output.success ? output.outputLen : 0)),
    ttfts: pyFloats(outputs.map((output) => output.ttft)),
    itls: outputs.map((output) => pyFloats(output.itl)),
    generated_texts: outputs.map((output) => output.generatedText),
    errors: outputs.map((output) => output.error),
  };
}

/**
 * With `--output-details`: what each response said about itself, under `meta_info`'s names (null
 * where it said nothing); absent when no response said anything.
 */
function requestServerKeys(outputs: readonly RequestOutput[]): JsonRecord {
  if (!outputs.some((output) => output.server !== undefined)) return {};
  const entry = (output: RequestOutput): JsonRecord | null => {
    const server = output.server;
    if (server === undefined) return null;
    const figures: JsonRecord = {};
    for (const [key, name] of SERVER_REPORT_FIELDS) {
      const value = server[key];
      // Counts print as Python ints, seconds as floats, as SGLang's meta_info has them.
      if (value !== undefined) figures[name] = key === 'e2eLatency' || key === 'queueTime' ? float(value) : value;
    }
    return figures;
  };
  return { request_server: outputs.map(entry) };
}

function servebenchKey(input: ResultRecordInput): JsonRecord {
  const { metrics, extras, args } = input;
  const reasoning = extras.reasoningTtft;
  return {
    max_itl_ms: float(metrics.maxItlMs),
    output_throughput_retokenized: float(metrics.outputThroughputRetokenized),
    total_throughput_retokenized: float(metrics.totalThroughputRetokenized),
    failed: extras.failed,
    failures_by_cause: { ...extras.failuresByCause },
    // Only when there were any, like the block's line: a run without that fault writes what it always wrote.
    ...(extras.resentRequests > 0 ? { resent_requests: extras.resentRequests } : {}),
    queue_time_ms: extras.queueTime && { mean: float(extras.queueTime.meanMs), p99: float(extras.queueTime.p99Ms) },
    requested_request_rate: float(extras.requestedRate),
    achieved_request_rate: floatOrNull(extras.achievedRate),
    peak_in_flight_requests: extras.peakInFlight,
    peak_output_tokens_per_s_1s_window: float(extras.peakOutputTokensPerS),
    reasoning_ttft_ms: reasoning && {
      count: reasoning.count,
      mean: float(reasoning.meanMs),
      median: float(reasoning.medianMs),
      p99: float(reasoning.p99Ms),
    },
    labels: { ...args.extensions.labels },
    sim: args.extensions.sim === null ? null : redactText(args.extensions.sim),
    ...(args.extensions.sim === null || input.simTimeScale === undefined ? {} : { sim_time_scale: float(input.simTimeScale) }),
    ...(input.prediction === undefined ? {} : { prediction_error: predictionError(input.prediction.expectedError) }),
    ...(input.selfCheck === undefined ? {} : selfCheckKeys(input.selfCheck)),
    ...(input.simSelfCheck === undefined ? {} : { sim_self_check: input.simSelfCheck }),
    ...(input.routerWorkers == null ? {} : { router_workers_server_info: redactValue(input.routerWorkers) }),
    ...(input.repeat == null ? {} : { repeat: { group: input.repeat.group, run: input.repeat.run, runs: input.repeat.runs } }),
    ...(input.shards == null ? {} : { shards: shardRecordKey(input.shards) }),
    ...(input.server == null || !hasServerSide(input.server) ? {} : { server_side: serverSideKeys(input.server) }),
    ...(args.output_details ? requestServerKeys(input.outputs) : {}),
  };
}

const gaugeKeys = (gauge: GaugeSummary | null): JsonRecord | null => gauge && { mean: float(gauge.mean), max: float(gauge.max) };
const floatsOrNull = (values: ReadonlyArray<number | null>): Array<PyFloat | null> => values.map(floatOrNull);

/** The server's /metrics over the window: the figures the block prints, and the readings' series (`plot --kind server`). */
function serverMetricsKeys(m: ServerMetricsSummary): JsonRecord {
  return {
    dialect: m.dialect,
    window_s: float(m.windowS),
    scrapes: m.scrapes,
    failed_scrapes: m.failedScrapes,
    prefix_cache_hit_rate: floatOrNull(m.prefixCacheHitRate),
    queue_time_ms: m.queueTime && { count: m.queueTime.count, mean: float(m.queueTime.meanMs), p99: floatOrNull(m.queueTime.p99Ms) },
    running_requests: gaugeKeys(m.running),
    queued_requests: gaugeKeys(m.queued),
    kv_cache_usage: gaugeKeys(m.kvUsage),
    generation_throughput: floatOrNull(m.generationThroughput),
    spec_accept_length: floatOrNull(m.specAcceptLength),
    series: {
      t: pyFloats(m.series.t),
      running_requests: floatsOrNull(m.series.running),
      queued_requests: floatsOrNull(m.series.queued),
      kv_cache_usage: floatsOrNull(m.series.kvUsage),
      generation_throughput: floatsOrNull(m.series.generationThroughput),
    },
  };
}

function serverSideKeys(side: ServerSide): JsonRecord {
  const split = side.ttftSplit;
  return {
    metrics: side.metrics && serverMetricsKeys(side.metrics),
    ttft_split_ms: split && {
      requests: split.requests,
      client_queue: float(split.clientQueueMs),
      server_queue_reported: split.serverQueueReported,
      server_queue: floatOrNull(split.serverQueueMs),
      rest: float(split.restMs),
    },
    token_counts: side.tokenCounts && { checked: side.tokenCounts.checked, differing: side.tokenCounts.differing },
  };
}

/** The self-check as the record keeps it: the console line and its figures (ms). */
function selfCheckKeys(verdict: ClientVerdict): JsonRecord {
  return {
    client_self_check: verdict.line,
    timing_error_bound_ms: float(verdict.timingErrorBoundMs),
    requests_over_timing_error_bound: verdict.requestsOverBound,
    max_timing_error_bound_ms: float(verdict.worstRequestBoundMs),
    worst_loop_stall_ms: float(verdict.worstStallMs),
  };
}

/** Median |relative error| of held-out predictions per headline metric (0.12 = 12%), or null when not cross-validated yet. */
function predictionError(summary: ExpectedError | null): JsonRecord | null {
  return summary && { mean_tpot: float(summary.meanTpot), output_throughput: float(summary.outputThroughput), mean_ttft: float(summary.meanTtft) };
}

/** bench_serving's argument keys, at the head of every record. */
function argumentKeys(args: RecordArgs): JsonRecord {
  return {
    tag: args.tag,
    backend: args.backend,
    dataset_name: args.dataset_name,
    request_rate: args.use_trace_timestamps ? 'trace' : float(args.request_rate),
    max_concurrency: args.max_concurrency,
    sharegpt_output_len: args.sharegpt_output_len,
    random_input_len: args.random_input_len,
    random_output_len: args.random_output_len,
    random_range_ratio: float(args.random_range_ratio),
  };
}

/** Builds the record bench_serving appends to the JSONL file, plus the `servebench` key. */
export function buildResultRecord(input: ResultRecordInput): JsonRecord {
  const { args, metrics: m } = input;
  const record: JsonRecord = {
    ...argumentKeys(args),
    server_info: redactValue(input.serverInfo),
    duration: float(m.durationS),
    completed: m.completed,
    total_input_tokens: m.totalInput,
    total_input_text_tokens: m.totalInputText,
    total_input_vision_tokens: m.totalInputVision,
    total_output_tokens: m.totalOutput,
    total_output_tokens_retokenized: m.totalOutputRetokenized,
    request_throughput: float(m.requestThroughput),
    input_throughput: float(m.inputThroughput),
    output_throughput: float(m.outputThroughput),
    total_throughput: float(m.totalThroughput),
    mean_e2e_latency_ms: float(m.meanE2eLatencyMs),
    median_e2e_latency_ms: float(m.medianE2eLatencyMs),
    std_e2e_latency_ms: float(m.stdE2eLatencyMs),
    p90_e2e_latency_ms: float(m.p90E2eLatencyMs),
    p99_e2e_latency_ms: float(m.p99E2eLatencyMs),
    mean_ttft_ms: float(m.meanTtftMs),
    median_ttft_ms: float(m.medianTtftMs),
    std_ttft_ms: float(m.stdTtftMs),
    p99_ttft_ms: float(m.p99TtftMs),
    mean_tpot_ms: float(m.meanTpotMs),
    median_tpot_ms: float(m.medianTpotMs),
    std_tpot_ms: float(m.stdTpotMs),
    p99_tpot_ms: float(m.p99TpotMs),
    mean_itl_ms: float(m.meanItlMs),
    median_itl_ms: float(m.medianItlMs),
    std_itl_ms: float(m.stdItlMs),
    p95_itl_ms: float(m.p95ItlMs),
    p99_itl_ms: float(m.p99ItlMs),
    concurrency: float(m.concurrency),
    accept_length: floatOrNull(m.acceptLength),
    max_output_tokens_per_s: float(m.maxOutputTokensPerS),
    max_concurrent_requests: m.maxConcurrentRequests,
  };
  if (args.output_details) Object.assign(record, detailKeys(input.outputs));
  record.servebench = servebenchKey(input);
  return record;
}

/**
 * The record appended after the runs of `--num-runs`: the runs' arguments, then under
 * `servebench.repeat_summary` each figure's mean, interval half-width, CV and per-run values, and
 * the headline figures the runs disagree on. It holds no run of its own (catalog ingest skips it:
 * the runs' own records carry the group).
 */
export function buildRepeatedRunsRecord(args: RecordArgs, group: string, summary: RepeatedRunsSummary): JsonRecord {
  const figures: JsonRecord = {};
  for (const figure of summary.figures) {
    figures[figure.figure.key] = {
      mean: float(figure.mean),
      half_width: floatOrNull(figure.halfWidth),
      cv: floatOrNull(figure.cv),
      values: pyFloats(figure.values),
    };
  }
  return {
    ...argumentKeys(args),
    servebench: {
      repeat_summary: {
        group,
        runs: summary.runs,
        confidence_level: float(summary.level),
        figures,
        noisy: summary.noisy.map((noisy) => noisy.figure.key),
      },
      labels: { ...args.extensions.labels },
    },
  };
}
