/**
 * A sweep point measured several times (`--num-runs` among the bench flags): one point whose
 * figures are the means over its runs, whose headline figures carry their confidence intervals
 * (the plot's error bars), and whose requests are pooled for the SLO and goodput. Pure.
 */
import { summarizeRepeatedRuns, type RepeatedRunsSummary, type RequestOutput } from '../bench/index.js';
import type { MetricValue } from '../catalog/index.js';

export interface PointRun {
  metrics: Readonly<Record<string, MetricValue>>;
  outputs: readonly RequestOutput[];
  durationSeconds: number;
}

export interface RepeatedPoint {
  /** Each figure every run has as a number: its mean over the runs; any other value: the first run's. */
  metrics: Record<string, MetricValue>;
  /** Every run's requests, in run order. */
  outputs: RequestOutput[];
  /** The runs' durations added up: the time the pooled requests took. */
  durationSeconds: number;
  summary: RepeatedRunsSummary;
}

/** The point of `runs` (two or more), its intervals at `level`. */
export function repeatedPoint(runs: readonly PointRun[], level: number): RepeatedPoint {
  const first = runs[0]!;
  const metrics: Record<string, MetricValue> = { ...first.metrics };
  for (const key of Object.keys(first.metrics)) {
    const values = runs.map((run) => run.metrics[key]);
    if (values.every((value): value is number => typeof value === 'number')) metrics[key] = values.reduce((sum, value) => sum + value, 0) / values.length;
  }
  return {
    metrics,
    outputs: runs.flatMap((run) => run.outputs),
    durationSeconds: runs.reduce((sum, run) => sum + run.durationSeconds, 0),
    summary: summarizeRepeatedRuns(runs.map((run) => run.metrics), level),
  };
}

/** The half-widths of a point's intervals keyed like its metrics (the chart's error bars). */
export function intervalsOf(summary: RepeatedRunsSummary): Record<string, number | null> {
  return Object.fromEntries(summary.figures.map((figure) => [figure.figure.key, figure.halfWidth]));
}
