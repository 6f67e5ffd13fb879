/**
 * Repeated runs (`--num-runs`): which figures are summarized over the runs, and their summary —
 * each figure's mean over the runs with its Student's t interval and coefficient of variation.
 * Figures are keyed as the JSONL record keys them, so the catalog summarizes a stored repeat group
 * with the same table. Pure.
 */
import { meanInterval, type MeanInterval } from '../../core/confidence.js';
import type { BenchmarkMetrics } from './types.js';

/** Where a run stands in its repeated measurement. */
export interface RepeatMembership {
  /** Shared by every run of one repeated measurement. */
  group: string;
  /** 1-based. */
  run: number;
  runs: number;
}

/** One figure summarized over repeated runs. */
export interface RepeatedFigure {
  /** The JSONL record's key. */
  key: string;
  /** The result block's label. */
  label: string;
  /** A headline figure gets a note when the runs disagree on it by more than {@link NOISY_CV}. */
  headline: boolean;
  of(metrics: BenchmarkMetrics): number;
}

/** Output throughput, TTFT, TPOT, ITL and E2E latency: the figures people compare servers by. Tails are noisier by nature: no note for them. */
export const REPEATED_FIGURES: readonly RepeatedFigure[] = [
  { key: 'output_throughput', label: 'Output token throughput (tok/s):', headline: true, of: (m) => m.outputThroughput },
  { key: 'mean_ttft_ms', label: 'Mean TTFT (ms):', headline: true, of: (m) => m.meanTtftMs },
  { key: 'p99_ttft_ms', label: 'P99 TTFT (ms):', headline: false, of: (m) => m.p99TtftMs },
  { key: 'mean_tpot_ms', label: 'Mean TPOT (ms):', headline: true, of: (m) => m.meanTpotMs },
  { key: 'p99_tpot_ms', label: 'P99 TPOT (ms):', headline: false, of: (m) => m.p99TpotMs },
  { key: 'mean_itl_ms', label: 'Mean ITL (ms):', headline: true, of: (m) => m.meanItlMs },
  { key: 'p99_itl_ms', label: 'P99 ITL (ms):', headline: false, of: (m) => m.p99ItlMs },
  { key: 'mean_e2e_latency_ms', label: 'Mean E2E Latency (ms):', headline: true, of: (m) => m.meanE2eLatencyMs },
];

/** Runs that disagree on a headline figure by more than this coefficient of variation get a note. */
export const NOISY_CV = 0.05;

export interface FigureSummary extends MeanInterval {
  figure: RepeatedFigure;
  /** The figure's value in each run, in run order. */
  values: number[];
}

export interface RepeatedRunsSummary {
  runs: number;
  /** The intervals' confidence level (0.95: 95%). */
  level: number;
  /** The figures every run has, in {@link REPEATED_FIGURES} order. */
  figures: FigureSummary[];
  /** The headline figures whose CV is above {@link NOISY_CV}. */
  noisy: FigureSummary[];
}

/** A run's figures keyed as the JSONL record keys them. */
export function repeatedFigureValues(metrics: BenchmarkMetrics): Record<string, number> {
  return Object.fromEntries(REPEATED_FIGURES.map((figure) => [figure.key, figure.of(metrics)]));
}

/** The summary of runs given as records keyed like the JSONL record (a figure missing or not finite in any run is left out). */
export function summarizeRepeatedRuns(runs: readonly Readonly<Record<string, unknown>>[], level: number): RepeatedRunsSummary {
  const figures: FigureSummary[] = [];
  for (const figure of REPEATED_FIGURES) {
    const values = runs.map((run) => run[figure.key]);
    if (runs.length === 0 || !values.every((value): value is number => typeof value === 'number' && Number.isFinite(value))) continue;
    figures.push({ figure, values, ...meanInterval(values, level) });
  }
  const noisy = figures.filter((summary) => summary.figure.headline && summary.cv !== null && summary.cv > NOISY_CV);
  return { runs: runs.length, level, figures, noisy };
}
