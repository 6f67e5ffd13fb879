/**
 * Leave-one-group-out cross-validation: each model × hardware group is held out in turn, the
 * acceptance and the factors are refitted on the other groups (starting from the full fit), and the
 * held-out group is predicted with them. Its errors are what the model does on runs it was not
 * fitted to — the number to report and to drive down.
 */
import { median } from '../core/stats.js';
import { DEFAULT_FACTORS } from '../sim/index.js';
import { fitAcceptance } from './acceptance.js';
import type { PredictedFigures, PreparedCase } from './case-runner.js';
import { fitFactors, METRICS, type CaseJacobian, type CaseSimulator, type Metric } from './fit.js';

export interface HeldOut {
  /** Index of the case in the prepared list. */
  index: number;
  figures: PredictedFigures;
}

export interface CrossValidationOptions {
  factors: readonly string[];
  start: Readonly<Record<string, number>>;
  maxIterations: number;
  /** The full fit's Jacobian blocks (by case index): each fold starts from them instead of differentiating again. */
  jacobian: ReadonlyMap<number, CaseJacobian>;
  /** Hold out only these groups (all when absent): to look at one fold. */
  only?: readonly string[];
  log?: (line: string) => void;
}

/** The groups of the cases, in first-seen order. */
export function groupsOf(cases: readonly PreparedCase[]): string[] {
  return [...new Set(cases.map((p) => p.group))];
}

/** Predicts every case with a calibration fitted without its group. */
export async function crossValidate(cases: readonly PreparedCase[], simulator: CaseSimulator, options: CrossValidationOptions): Promise<HeldOut[]> {
  const heldOut: HeldOut[] = [];
  for (const group of groupsOf(cases).filter((g) => options.only === undefined || options.only.includes(g))) {
    const train = cases.map((p, i) => ({ p, i })).filter(({ p }) => p.group !== group);
    const test = cases.map((p, i) => ({ p, i })).filter(({ p }) => p.group === group);
    const acceptance = fitAcceptance(train.map(({ p }) => p));
    const start = { ...DEFAULT_FACTORS, ...options.start };
    const fit = await fitFactors({
      cases: train.map(({ p }) => p),
      indices: train.map(({ i }) => i),
      simulator,
      factors: options.factors,
      start,
      acceptance,
      maxIterations: options.maxIterations,
      // A fold starts at the full fit with its Jacobian, and differentiates again where that Jacobian finds
      // no better point: stopping there would predict the group with factors that saw it.
      refreshJacobian: true,
      jacobian: options.jacobian,
    });
    const figures = await simulator.simulate(
      test.map(({ i }) => i),
      { factors: fit.factors, acceptance },
    );
    test.forEach(({ i }, k) => heldOut.push({ index: i, figures: figures[k]! }));
    options.log?.(`cross-validation: ${group} held out (${test.length} cases, refit in ${fit.iterations} iterations; moved most: ${movedMost(start, fit.factors)})`);
  }
  return heldOut.sort((a, b) => a.index - b.index);
}

/** The factors a fold moved furthest from where it started, as `name ×ratio`. */
function movedMost(start: Readonly<Record<string, number>>, end: Readonly<Record<string, number>>): string {
  return Object.keys(end)
    .filter((name) => start[name] !== undefined && start[name] !== end[name])
    .map((name) => ({ name, ratio: end[name]! / start[name]! }))
    .sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)))
    .slice(0, 4)
    .map(({ name, ratio }) => `${name} ×${ratio.toFixed(2)}`)
    .join(', ');
}

/** Relative error of a predicted figure. */
export function relativeError(predicted: number, published: number): number {
  return (predicted - published) / published;
}


/** Median |relative error| per headline metric over a set of predictions. */
export function medianAbsoluteErrors(cases: readonly PreparedCase[], predictions: readonly HeldOut[]): Record<Metric, number> {
  return Object.fromEntries(
    METRICS.map((metric) => [metric, median(predictions.map(({ index, figures }) => Math.abs(relativeError(figures[metric], cases[index]!.case.published[metric]))))]),
  ) as Record<Metric, number>;
}
