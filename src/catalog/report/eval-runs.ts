/**
 * Accuracy runs (`servebench eval`, source kind `eval`) beside performance runs: which eval runs
 * belong to a performance run's server configuration and the other way round, and the accuracy
 * as shown in tables (`n/a (sim)` where the answers were synthetic). Pure.
 */
import type { EvalRunMetrics, RunRecord } from '../types.js';
import { deriveDatasetLabel } from './run-facts.js';
import { sameServerConfiguration } from './server-config.js';
import { formatMetric, formatNumber } from './text-table.js';

export function isEvalRun(run: RunRecord): boolean {
  return run.source.kind === 'eval';
}

function evalMetrics(run: RunRecord): EvalRunMetrics {
  return run.metrics as EvalRunMetrics;
}

/** The task an eval run measured (`gsm8k`, `mmlu`, `gpqa`). */
export function evalTaskOf(run: RunRecord): string {
  return String(evalMetrics(run).task);
}

/** `0.875`, or `n/a (sim)` when the answers came from the sim. */
export function accuracyText(run: RunRecord): string {
  const metrics = evalMetrics(run);
  if (metrics.answers === 'synthetic') return 'n/a (sim)';
  return formatNumber(metrics.accuracy, 3);
}

/** The newest eval run of each task served like `run`, by task name; `runs` newest first, as `listRuns` gives them. */
export function linkedEvalRuns(run: RunRecord, runs: readonly RunRecord[]): Map<string, RunRecord> {
  const byTask = new Map<string, RunRecord>();
  for (const other of runs) {
    if (!isEvalRun(other) || other.id === run.id || !sameServerConfiguration(run, other)) continue;
    const task = evalTaskOf(other);
    if (!byTask.has(task)) byTask.set(task, other);
  }
  return byTask;
}

/** The performance runs served like the eval run `run`, in the order of `runs`. */
export function linkedPerformanceRuns(run: RunRecord, runs: readonly RunRecord[]): RunRecord[] {
  return runs.filter((other) => !isEvalRun(other) && sameServerConfiguration(run, other));
}

/** A run served like another, and what it measured in one phrase. */
export interface LinkedRun {
  id: string;
  /** `gsm8k accuracy 0.875 over 200 questions`, or `16-4, concurrency 64, mean TPOT 12.50 ms, 900.00 output tok/s`. */
  summary: string;
}

/** The runs served like `run`: for a performance run the eval run of each task, for an eval run the performance runs. */
export function linkedRuns(run: RunRecord, runs: readonly RunRecord[]): LinkedRun[] {
  if (!isEvalRun(run)) {
    return [...linkedEvalRuns(run, runs).entries()].map(([task, other]) => ({
      id: other.id,
      summary: `${task} accuracy ${accuracyText(other)} over ${formatNumber(other.metrics.questions, 0)} questions`,
    }));
  }
  return linkedPerformanceRuns(run, runs).map((other) => ({
    id: other.id,
    summary:
      `${deriveDatasetLabel(other) ?? 'dataset -'}, concurrency ${formatMetric(other.metrics.max_concurrency ?? other.args?.max_concurrency)}, ` +
      `mean TPOT ${formatNumber(other.metrics.mean_tpot_ms)} ms, ${formatNumber(other.metrics.output_throughput)} output tok/s`,
  }));
}

/** One accuracy column of the best-practice table: a task, and its accuracy per performance run id. */
export interface AccuracyColumn {
  task: string;
  byRun: Map<string, string>;
}

/**
 * The accuracy columns for `performanceRuns`: one per task that some eval run in `runs` (newest
 * first) measured on the server configuration of one of them, tasks in name order.
 */
export function accuracyColumns(performanceRuns: readonly RunRecord[], runs: readonly RunRecord[]): AccuracyColumn[] {
  const columns = new Map<string, Map<string, string>>();
  for (const run of performanceRuns) {
    for (const [task, evalRun] of linkedEvalRuns(run, runs)) {
      if (!columns.has(task)) columns.set(task, new Map());
      columns.get(task)!.set(run.id, accuracyText(evalRun));
    }
  }
  return [...columns.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([task, byRun]) => ({ task, byRun }));
}
