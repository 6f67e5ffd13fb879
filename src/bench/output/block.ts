/**
 * The console result block, byte for byte bench_serving's layout (spec §6): `{:<40} {:<10}`
 * label/value lines with their trailing spaces, `{:<10.2f}` numbers rounded as Python rounds,
 * 50-character centred headers.
 */
import { center, formatFixed, ljust, pyFloatRepr } from '../../core/pyformat.js';
import type { BenchmarkMetrics } from '../metrics/types.js';
import type { BenchRunConfig, LoadOptions } from '../run-config.js';

/** The settings the block prints. */
export interface BlockSettings {
  readonly backend: BenchRunConfig['backend'];
  readonly load: Pick<LoadOptions, 'requestRate' | 'useTraceTimestamps' | 'maxConcurrency'>;
  readonly dataset: Pick<BenchRunConfig['dataset'], 'name'>;
}

/** Width of every header and of the closing rule. */
export const BLOCK_WIDTH = 50;

/** `"{:<40} {:<10}".format(label, value)`. */
export function textLine(label: string, value: string | number): string {
  return `${ljust(label, 40)} ${ljust(String(value), 10)}`;
}

/** `"{:<40} {:<10.2f}".format(label, value)`. */
export function numberLine(label: string, value: number): string {
  return `${ljust(label, 40)} ${ljust(formatFixed(value, 2), 10)}`;
}

/** A section header: the title centred in 50 fill characters (the odd one on the right). */
export function sectionHeader(title: string, fill: string): string {
  return center(title, BLOCK_WIDTH, fill);
}

/** The "Traffic request rate" value: `trace`, or Python `str(float)` (`inf`, `16.0`, `0.5`). */
export function requestRateLabel(load: Pick<LoadOptions, 'requestRate' | 'useTraceTimestamps'>): string {
  return load.useTraceTimestamps ? 'trace' : pyFloatRepr(load.requestRate);
}

/**
 * The block exactly as bench_serving writes it to stdout: a blank line, the lines, the closing
 * `=` rule and a final newline. Vision tokens print only for the image and mmmu datasets, the
 * accept length only when it is set and non-zero (Python truthiness).
 */
export function formatResultBlock(metrics: BenchmarkMetrics, settings: BlockSettings): string {
  const { load } = settings;
  const lines = [
    '',
    sectionHeader(' Serving Benchmark Result ', '='),
    textLine('Backend:', settings.backend),
    textLine('Traffic request rate:', requestRateLabel(load)),
    textLine('Max request concurrency:', load.maxConcurrency ? load.maxConcurrency : 'not set'),
    textLine('Successful requests:', metrics.completed),
    numberLine('Benchmark duration (s):', metrics.durationS),
    textLine('Total input tokens:', metrics.totalInput),
    textLine('Total input text tokens:', metrics.totalInputText),
  ];
  if (settings.dataset.name === 'image' || settings.dataset.name === 'mmmu') {
    lines.push(textLine('Total input vision tokens:', metrics.totalInputVision));
  }
  lines.push(
    textLine('Total generated tokens:', metrics.totalOutput),
    textLine('Total generated tokens (retokenized):', metrics.totalOutputRetokenized),
    numberLine('Request throughput (req/s):', metrics.requestThroughput),
    numberLine('Input token throughput (tok/s):', metrics.inputThroughput),
    numberLine('Output token throughput (tok/s):', metrics.outputThroughput),
    numberLine('Peak output token throughput (tok/s):', metrics.maxOutputTokensPerS),
    textLine('Peak concurrent requests:', metrics.maxConcurrentRequests),
    numberLine('Total token throughput (tok/s):', metrics.totalThroughput),
    numberLine('Concurrency:', metrics.concurrency),
  );
  // Python truthiness: None and 0 hide the line, NaN shows it.
  if (metrics.acceptLength !== null && metrics.acceptLength !== 0) lines.push(numberLine('Accept length:', metrics.acceptLength));
  lines.push(
    sectionHeader('End-to-End Latency', '-'),
    numberLine('Mean E2E Latency (ms):', metrics.meanE2eLatencyMs),
    numberLine('Median E2E Latency (ms):', metrics.medianE2eLatencyMs),
    numberLine('P90 E2E Latency (ms):', metrics.p90E2eLatencyMs),
    numberLine('P99 E2E Latency (ms):', metrics.p99E2eLatencyMs),
    sectionHeader('Time to First Token', '-'),
    numberLine('Mean TTFT (ms):', metrics.meanTtftMs),
    numberLine('Median TTFT (ms):', metrics.medianTtftMs),
    numberLine('P99 TTFT (ms):', metrics.p99TtftMs),
    sectionHeader('Time per Output Token (excl. 1st token)', '-'),
    numberLine('Mean TPOT (ms):', metrics.meanTpotMs),
    numberLine('Median TPOT (ms):', metrics.medianTpotMs),
    numberLine('P99 TPOT (ms):', metrics.p99TpotMs),
    sectionHeader('Inter-Token Latency', '-'),
    numberLine('Mean ITL (ms):', metrics.meanItlMs),
    numberLine('Median ITL (ms):', metrics.medianItlMs),
    numberLine('P95 ITL (ms):', metrics.p95ItlMs),
    numberLine('P99 ITL (ms):', metrics.p99ItlMs),
    numberLine('Max ITL (ms):', metrics.maxItlMs),
    '='.repeat(BLOCK_WIDTH),
  );
  return lines.join('\n') + '\n';
}
