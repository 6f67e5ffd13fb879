/**
 * How sure a prediction is: the performance model's leave-one-group-out cross-validated error
 * (`storedCrossValidation()`, median |relative error| per headline metric on published runs the
 * fit never saw), worded for every place that prints predicted figures. The summary is passed in,
 * never read here, so the wording is tested with any summary; null (no cross-validated fit yet)
 * prints no ± at all rather than a number nobody measured.
 */
import { type BenchmarkMetrics, sectionHeader, textLine } from '../bench/index.js';
import { formatFixed } from '../core/pyformat.js';
import type { CrossValidationSummary } from '../sim/index.js';

/** Said wherever a ± would go when the model has not been cross-validated yet. */
const NO_EXPECTED_ERROR = 'not known yet: the performance model has no cross-validated error';

/**
 * `±12%`: whole percents, one decimal below 10% so a small error never rounds to `±0%` (a median
 * over a few dozen runs does not carry more digits than that).
 */
export function formatErrorPercent(fraction: number): string {
  const percent = fraction * 100;
  return `±${percent < 9.95 ? percent.toFixed(1) : percent.toFixed(0)}%`;
}

/** ` (±12%)`, after a predicted figure. */
function errorSuffix(fraction: number): string {
  return ` (${formatErrorPercent(fraction)})`;
}

/** Where the ± comes from, e.g. `median |error| of leave-one-group-out cross-validation over 41 published runs (14 model × hardware groups)`. */
function expectedErrorSource(summary: CrossValidationSummary): string {
  return `median |error| of leave-one-group-out cross-validation over ${summary.cases} published runs (${summary.groups} model × hardware groups)`;
}

/** ` (±10%)` after a predicted output throughput, or nothing without a cross-validated error. */
export function throughputErrorSuffix(summary: CrossValidationSummary | null): string {
  return summary === null ? '' : errorSuffix(summary.outputThroughput);
}

/** A predicted figure named as an SLO target names it: `tpot` and `{ kind: 'mean' }` for mean TPOT. */
export interface FigureName {
  metric: string;
  statistic: { kind: string };
}

/**
 * ` (±12%)` after an SLO target's predicted value: only mean TPOT and mean TTFT, the statistics the
 * cross-validation judges; nothing for other statistics or without a cross-validated error.
 */
export function sloErrorSuffix(target: FigureName, summary: CrossValidationSummary | null): string {
  if (summary === null || target.statistic.kind !== 'mean') return '';
  if (target.metric === 'tpot') return errorSuffix(summary.meanTpot);
  if (target.metric === 'ttft') return errorSuffix(summary.meanTtft);
  return '';
}

/** The section `predict` adds to the extras block: the headline predicted figures with their ±, and where the ± comes from. */
export function formatExpectedErrorSection(metrics: Pick<BenchmarkMetrics, 'meanTpotMs' | 'outputThroughput' | 'meanTtftMs'>, summary: CrossValidationSummary | null): string[] {
  const header = sectionHeader('Expected error of the prediction', '-');
  if (summary === null) return [header, textLine('Expected error:', NO_EXPECTED_ERROR)];
  const withError = (label: string, value: number, error: number): string => textLine(label, `${formatFixed(value, 2)}${errorSuffix(error)}`);
  return [
    header,
    withError('Mean TPOT (ms):', metrics.meanTpotMs, summary.meanTpot),
    withError('Output token throughput (tok/s):', metrics.outputThroughput, summary.outputThroughput),
    withError('Mean TTFT (ms):', metrics.meanTtftMs, summary.meanTtft),
    textLine('Expected error:', expectedErrorSource(summary)),
  ];
}

/** The line under a table of predicted figures (`sweep --predict`, `--search-configs`): the ± once for every cell. */
export function formatExpectedErrorNote(summary: CrossValidationSummary | null): string {
  if (summary === null) return `Predicted figures; expected error ${NO_EXPECTED_ERROR}`;
  return (
    `Predicted figures; expected error ${formatErrorPercent(summary.meanTpot)} mean TPOT, ${formatErrorPercent(summary.outputThroughput)} output tok/s, ` +
    `${formatErrorPercent(summary.meanTtft)} mean TTFT: ${expectedErrorSource(summary)}`
  );
}
