/**
 * Stored repeat groups (the runs of one `bench --num-runs`): a group's summary over its runs, and
 * whether two groups differ beyond their run-to-run noise — Welch's test on each headline figure's
 * per-run values, at the confidence level the baseline was measured with. Pure.
 */
import { REPEATED_FIGURES, summarizeRepeatedRuns, type FigureSummary, type RepeatedFigure, type RepeatedRunsSummary } from '../../bench/index.js';
import { DEFAULT_CONFIDENCE_LEVEL, welchInterval, type WelchInterval } from '../../core/confidence.js';
import type { RunRecord } from '../types.js';

/** The confidence level a run was measured with (`--confidence-level`, kept in its arguments), else 95%. */
export function confidenceLevelOf(run: RunRecord): number {
  const extensions = run.args?.extensions as { confidenceLevel?: unknown } | undefined;
  const level = extensions?.confidenceLevel;
  return typeof level === 'number' && level > 0 && level < 1 ? level : DEFAULT_CONFIDENCE_LEVEL;
}

/** A group's summary over its runs, at the level its first run was measured with. */
export function summarizeGroup(runs: readonly RunRecord[]): RepeatedRunsSummary {
  return summarizeRepeatedRuns(runs.map((run) => run.metrics), runs[0] === undefined ? DEFAULT_CONFIDENCE_LEVEL : confidenceLevelOf(runs[0]));
}

/** One figure of two groups, with Welch's interval of the other's mean minus the baseline's. */
export interface FigureNoiseCheck {
  figure: RepeatedFigure;
  baseline: FigureSummary;
  other: FigureSummary;
  welch: WelchInterval;
}

/** Compared run `run` (its group) against the baseline's group. */
export interface GroupNoiseCheck {
  /** Index of the compared run whose group this is. */
  run: number;
  baselineGroup: string;
  otherGroup: string;
  level: number;
  /** The figures both groups have. */
  figures: FigureNoiseCheck[];
}

/**
 * The group noise checks of each compared run against the first, at `level`: `groups[i]` holds the
 * runs of compared run i's group, or null for a run measured once (one run cannot tell noise). A
 * run of the baseline's own group is not checked against it.
 */
export function groupNoiseChecks(groups: readonly (readonly RunRecord[] | null)[], level: number): GroupNoiseCheck[] {
  const baseline = groups[0];
  if (!baseline || baseline.length < 2) return [];
  const baselineGroup = baseline[0]!.repeat!.group;
  const baselineSummary = summarizeRepeatedRuns(baseline.map((run) => run.metrics), level);
  const checks: GroupNoiseCheck[] = [];
  groups.forEach((runs, index) => {
    if (index === 0 || !runs || runs.length < 2) return;
    const otherGroup = runs[0]!.repeat!.group;
    if (otherGroup === baselineGroup) return;
    const other = summarizeRepeatedRuns(runs.map((run) => run.metrics), level);
    const figures: FigureNoiseCheck[] = [];
    for (const figure of REPEATED_FIGURES) {
      const base = baselineSummary.figures.find((summary) => summary.figure.key === figure.key);
      const them = other.figures.find((summary) => summary.figure.key === figure.key);
      if (!base || !them) continue;
      const welch = welchInterval(base.values, them.values, level);
      if (welch) figures.push({ figure, baseline: base, other: them, welch });
    }
    checks.push({ run: index, baselineGroup, otherGroup, level, figures });
  });
  return checks;
}

/** The group checks of compared runs (the first the baseline), each run's group read by `groupRuns`, at the baseline's level. */
export function repeatGroupChecks(runs: readonly RunRecord[], groupRuns: (group: string) => readonly RunRecord[]): GroupNoiseCheck[] {
  if (runs.length === 0) return [];
  const groups = runs.map((run) => (run.repeat ? groupRuns(run.repeat.group) : null));
  return groupNoiseChecks(groups, confidenceLevelOf(runs[0]!));
}
