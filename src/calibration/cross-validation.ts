/**
 * Cross-validation: the cases are split into folds by a partition — each model × hardware group
 * (leave-one-group-out) or each architecture class (leave-one-architecture-out) — and each fold is
 * held out in turn: the acceptance and the factors are refitted on the other folds (starting from the
 * full fit), and the held-out fold is predicted with them. Its errors are what the model does on runs
 * it was not fitted to — the number to report and to drive down.
 */
import { median } from '../core/stats.js';
import { DEFAULT_FACTORS, FACTOR_SPECS } from '../sim/index.js';
import { fitAcceptance } from './acceptance.js';
import type { PredictedFigures, PreparedCase } from './case-runner.js';
import { caseUsesFactor, fitFactors, METRICS, type CaseJacobian, type CaseSimulator, type Metric } from './fit.js';

export interface HeldOut {
  /** Index of the case in the prepared list. */
  index: number;
  figures: PredictedFigures;
}

/** What a fold holds out: a model × hardware group, or every case of one architecture class. */
export type Partition = 'group' | 'architecture';

/** One fold: the partition's value it holds out and its cases (indices in the prepared list). */
export interface Fold {
  name: string;
  heldOut: number[];
}

/** A fold as it was fitted: what it held out, and the factors it had no data for. */
export interface FoldReport extends Fold {
  iterations: number;
  /** Factors no training case of the fold can move: kept at their prior, not at the full fit's value (which saw the fold). */
  atPrior: string[];
}

export interface CrossValidation {
  heldOut: HeldOut[];
  folds: FoldReport[];
}

export interface CrossValidationOptions {
  /** Which folds to hold out. */
  by: Partition;
  factors: readonly string[];
  start: Readonly<Record<string, number>>;
  maxIterations: number;
  /** The full fit's Jacobian blocks (by case index; a column per factor): each fold starts from them instead of differentiating again. */
  jacobian: ReadonlyMap<number, CaseJacobian>;
  /** Hold out only the folds of these names (all when absent): to look at one fold. */
  only?: readonly string[];
  log?: (line: string) => void;
}

/** The folds of a partition of the cases, in first-seen order. */
export function foldsOf(cases: readonly Pick<PreparedCase, Partition>[], by: Partition): Fold[] {
  const folds = new Map<string, number[]>();
  cases.forEach((p, i) => folds.set(p[by], [...(folds.get(p[by]) ?? []), i]));
  return [...folds].map(([name, heldOut]) => ({ name, heldOut }));
}

/** The factors none of `train` can move: a fold has no data to fit them. */
export function factorsWithoutData(train: readonly PreparedCase[], factors: readonly string[]): string[] {
  return factors.filter((name) => !train.some((p) => caseUsesFactor(p, name)));
}

/** Jacobian blocks restricted to the columns at `columns`. */
function jacobianColumns(jacobian: ReadonlyMap<number, CaseJacobian>, columns: readonly number[]): Map<number, CaseJacobian> {
  return new Map([...jacobian].map(([index, rows]) => [index, rows.map((row) => columns.map((j) => row[j]!))]));
}

/** Predicts every case with a calibration fitted without its fold. */
export async function crossValidate(cases: readonly PreparedCase[], simulator: CaseSimulator, options: CrossValidationOptions): Promise<CrossValidation> {
  const heldOut: HeldOut[] = [];
  const reports: FoldReport[] = [];
  for (const fold of foldsOf(cases, options.by).filter((f) => options.only === undefined || options.only.includes(f.name))) {
    const held = new Set(fold.heldOut);
    const train = cases.map((p, i) => ({ p, i })).filter(({ i }) => !held.has(i));
    const acceptance = fitAcceptance(train.map(({ p }) => p));
    // A factor only the held-out fold uses (DeepSeek's sparse-attention factors when its class is out) has
    // nothing to fit: it falls back to its prior rather than keep the full fit's value, learnt from the fold.
    const atPrior = factorsWithoutData(train.map(({ p }) => p), options.factors);
    const searched = options.factors.filter((name) => !atPrior.includes(name));
    const start = { ...DEFAULT_FACTORS, ...options.start, ...Object.fromEntries(atPrior.map((name) => [name, FACTOR_SPECS[name]!.prior])) };
    const fit = await fitFactors({
      cases: train.map(({ p }) => p),
      indices: train.map(({ i }) => i),
      simulator,
      factors: searched,
      start,
      acceptance,
      maxIterations: options.maxIterations,
      // A fold starts at the full fit with its Jacobian, and differentiates again where that Jacobian finds
      // no better point: stopping there would predict the fold with factors that saw it.
      refreshJacobian: true,
      jacobian: atPrior.length === 0 ? options.jacobian : jacobianColumns(options.jacobian, searched.map((name) => options.factors.indexOf(name))),
    });
    const figures = await simulator.simulate(fold.heldOut, { factors: fit.factors, acceptance });
    fold.heldOut.forEach((i, k) => heldOut.push({ index: i, figures: figures[k]! }));
    reports.push({ ...fold, iterations: fit.iterations, atPrior });
    const prior = atPrior.length === 0 ? '' : `; at their prior, no data: ${atPrior.join(', ')}`;
    options.log?.(`cross-validation: ${fold.name} held out (${fold.heldOut.length} cases, refit in ${fit.iterations} iterations; moved most: ${movedMost(start, fit.factors)}${prior})`);
  }
  return { heldOut: heldOut.sort((a, b) => a.index - b.index), folds: reports };
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
