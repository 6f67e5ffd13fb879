/**
 * How well the performance model predicts published runs: every case of the training files
 * (shared/reference/published/*.json and the reference logs) runs through the predict pipeline with
 * its own flags; the script prints predicted vs published per case under the stored calibration,
 * then a leave-one-group-out cross-validation (each model × hardware group held out, the factors
 * refitted without it, the group predicted) — the error to report and to drive down — and beside it a
 * leave-one-architecture-out one (every case of one attention × MLP class held out at once): how the
 * factors, per hardware family and engine feature, carry to an architecture the fit never saw.
 *
 * Run: npx tsx bench/predict-accuracy.ts [--write] [--no-cv] [--cases FILE ...] [--workers N]
 *   --write        refit on every case first, cross-validate, and store the fit in
 *                  src/sim/model/fitted-factors.json (what predict and the sim use)
 *   --refit        refit on every case first, without storing it
 *   --iterations N refit iterations (default 12; with --write, 0 stores the current fit's cross-validation)
 *   --cv-iterations N  iterations of each fold's refit (default 12)
 *   --fold NAME    hold out only this model × hardware group or architecture class (repeatable), to look at one fold
 *   --cases FILE   case files to use instead of the training set (same format), e.g. a held-aside set:
 *                  predicted with the stored calibration, no cross-validation
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { UserError } from '../src/core/errors.js';
import {
  crossValidate,
  fitAcceptance,
  fitFactors,
  type FoldReport,
  foldsOf,
  loadCaseFiles,
  medianAbsoluteErrors,
  METRICS,
  pooledSimulator,
  prepareCase,
  relativeError,
  trainingCases,
  type HeldOut,
  type Metric,
  type Partition,
  type PredictedFigures,
  type PreparedCase,
  type PredictionCase,
} from '../src/calibration/index.js';
import { DEFAULT_ACCEPTANCE, DEFAULT_FACTORS, FACTOR_SPECS, fittableFactors, type AcceptanceTable, type FittedFile } from '../src/sim/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FITTED_FILE = join(root, 'src', 'sim', 'model', 'fitted-factors.json');
const TARGETS: Record<Metric, number> = { tpotMs: 0.15, outputTps: 0.15, ttftMs: 0.3 };
const GROUP_TPOT_TARGET = 0.3;
const LABELS: Record<Metric, string> = { tpotMs: 'mean TPOT ms', outputTps: 'output tok/s', ttftMs: 'mean TTFT ms' };

/** The script's flags (parsed in main, so that a bad one is reported like any other bad input). */
const readOptions = () =>
  parseArgs({
    options: {
      write: { type: 'boolean', default: false },
      refit: { type: 'boolean', default: false },
      'no-cv': { type: 'boolean', default: false },
      cases: { type: 'string', multiple: true },
      workers: { type: 'string' },
      iterations: { type: 'string', default: '12' },
      // A fold refits like the full fit, to convergence (fit.ts, hasConverged: a step gaining under 0.1% that moves no factor by more than 2%):
      // cut at 4, three folds stopped early and the TTFT median moved by half a point.
      'cv-iterations': { type: 'string', default: '12' },
      fold: { type: 'string', multiple: true },
    },
  }).values;

/** Fitted values as the file stores them (4 significant digits). */
const storedValues = (values: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.entries(values).map(([name, v]) => [name, Number(v.toPrecision(4))]));

/** An acceptance table as the file stores it. */
const storedAcceptance = (table: AcceptanceTable): AcceptanceTable => ({
  mean: Number(table.mean.toPrecision(4)),
  models: storedValues(table.models),
  datasets: storedValues(table.datasets),
  published: Object.fromEntries(Object.entries(table.published).map(([dataset, rates]) => [dataset, storedValues(rates)])),
});

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)}%`;
const num = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

function printTable(title: string, cases: readonly PreparedCase[], predictions: readonly HeldOut[]): void {
  console.log(`\n${title}`);
  console.log(
    `${'case'.padEnd(5)}${'model × hardware'.padEnd(36)}${METRICS.map((m) => `${LABELS[m]}: published → predicted`.padStart(38)).join('')}${'accept'.padStart(14)}`,
  );
  for (const { index, figures } of predictions) {
    const p = cases[index]!;
    const pub = p.case.published;
    const cells = METRICS.map((m) => `${num(pub[m])} → ${num(figures[m])} (${pct(relativeError(figures[m], pub[m]))})`.padStart(38));
    const accept = pub.acceptLength === null ? '' : `${pub.acceptLength.toFixed(2)} → ${figures.acceptLength?.toFixed(2) ?? '-'}`;
    console.log(`${p.case.id.padEnd(5)}${p.group.padEnd(36)}${cells.join('')}${accept.padStart(14)}`);
  }
}

/** The medians over `predictions`, with the targets where they are the figure to judge. */
function printSummary(label: string, cases: readonly PreparedCase[], predictions: readonly HeldOut[], judged = true): Record<Metric, number> {
  const errors = medianAbsoluteErrors(cases, predictions);
  const line = METRICS.map((m) => `${LABELS[m]} ${(errors[m] * 100).toFixed(1)}%${judged ? ` (target ≤ ${TARGETS[m] * 100}%)` : ''}`).join(', ');
  console.log(`${label}: median |error| over ${predictions.length} cases: ${line}`);
  return errors;
}

/**
 * One line per fold: its cases' median errors, and the factors it kept at their prior for want of
 * data. Groups are held to the per-group TPOT bound; architecture classes are reported only.
 * Returns the worst fold's TPOT error.
 */
function printFolds(cases: readonly PreparedCase[], predictions: readonly HeldOut[], by: Partition, folds: readonly FoldReport[]): number {
  console.log(`per ${by === 'group' ? 'group' : 'architecture class'}, median |error| (mean TPOT, output tok/s, mean TTFT):`);
  let worst = 0;
  for (const fold of folds) {
    const errors = medianAbsoluteErrors(cases, predictions.filter(({ index }) => fold.heldOut.includes(index)));
    worst = Math.max(worst, errors.tpotMs);
    const flag = by === 'group' && errors.tpotMs > GROUP_TPOT_TARGET ? `  ← above ${GROUP_TPOT_TARGET * 100}% TPOT` : '';
    const prior = fold.atPrior.length === 0 ? '' : `  (no data without it, at prior: ${fold.atPrior.join(', ')})`;
    console.log(`  ${fold.name.padEnd(38)} ${String(fold.heldOut.length).padStart(2)} cases  ${METRICS.map((m) => `${(errors[m] * 100).toFixed(0)}%`.padStart(6)).join('')}${flag}${prior}`);
  }
  return worst;
}

/** The factor values, with their priors. */
function printFactors(factors: Readonly<Record<string, number>>): void {
  console.log('factors (value, prior):');
  for (const name of fittableFactors()) {
    const spec = FACTOR_SPECS[name]!;
    const value = factors[name] ?? spec.prior;
    console.log(`  ${name.padEnd(28)} ${value.toPrecision(3).padStart(9)}  (prior ${spec.prior})`);
  }
}

/** Prepares every case that runs; the others are reported, never silently left out. */
async function prepareRunnable(cases: readonly PredictionCase[]): Promise<{ prepared: PreparedCase[]; failed: { c: PredictionCase; error: string }[] }> {
  const prepared: PreparedCase[] = [];
  const failed: { c: PredictionCase; error: string }[] = [];
  for (const c of cases) {
    try {
      prepared.push(await prepareCase(c));
    } catch (error) {
      failed.push({ c, error: (error as Error).message });
    }
  }
  return { prepared, failed };
}

async function main(): Promise<void> {
  const values = readOptions();
  const started = performance.now();
  const heldAside = values.cases !== undefined;
  const loaded = heldAside ? loadCaseFiles(values.cases!.map((f) => resolve(f)), root) : trainingCases(root);
  const { prepared, failed } = await prepareRunnable(loaded);
  for (const { c, error } of failed) console.log(`case ${c.id} (${c.name}) cannot run: ${error}`);
  const simulator = await pooledSimulator(prepared.map((p) => p.case), values.workers === undefined ? undefined : Number(values.workers));
  const log = (line: string): void => console.log(`  ${line}`);
  const all = prepared.map((_, i) => i);
  const factors = fittableFactors();
  try {
    if (heldAside) {
      const figures = await simulator.simulate(all, {});
      printTable('Per case, stored calibration (src/sim/model/fitted-factors.json)', prepared, figures.map((f, index) => ({ index, figures: f })));
      printSummary('held-aside cases', prepared, figures.map((f, index) => ({ index, figures: f })));
      return;
    }
    const refit = values.write || values.refit;
    const acceptance = refit ? storedAcceptance(fitAcceptance(prepared)) : DEFAULT_ACCEPTANCE;
    // Without a refit this only differentiates at the stored calibration (for the cross-validation's folds).
    const fit = await fitFactors({ cases: prepared, indices: all, simulator, factors, start: DEFAULT_FACTORS, acceptance, maxIterations: refit ? Number(values.iterations) : 0, refreshJacobian: true, log });
    const calibration: FittedFile = { factors: storedValues(fit.factors), acceptance, crossValidation: null };
    // The folds start from the calibration as stored, with a Jacobian computed there: what the default
    // run does on a fresh clone, so the error `--write` stores is the one that run prints.
    const origin = refit
      ? await fitFactors({ cases: prepared, indices: all, simulator, factors, start: calibration.factors, acceptance: calibration.acceptance, maxIterations: 0, refreshJacobian: true })
      : fit;
    const title = refit && fit.iterations > 0
      ? `Per case, refitted on all ${prepared.length} cases (in-sample: not the number to report)`
      : 'Per case, stored calibration (src/sim/model/fitted-factors.json; in-sample: not the number to report)';
    const inSampleRows = fit.predictions.map((figures: PredictedFigures, index) => ({ index, figures }));
    printTable(title, prepared, inSampleRows);
    printSummary('in-sample', prepared, inSampleRows);
    printFactors(calibration.factors);
    if (values['no-cv']) return;

    const crossValidated = async (by: Partition, title: string, label: string): Promise<{ errors: Record<Metric, number>; worst: number } | null> => {
      const { heldOut, folds } = await crossValidate(prepared, simulator, {
        by,
        factors,
        start: calibration.factors,
        maxIterations: Number(values['cv-iterations']),
        jacobian: origin.jacobian,
        ...(values.fold === undefined ? {} : { only: values.fold }),
        log,
      });
      if (folds.length === 0) return null; // --fold named none of this partition's folds
      printTable(title, prepared, heldOut);
      const errors = printSummary(label, prepared, heldOut, by === 'group');
      return { errors, worst: printFolds(prepared, heldOut, by, folds) };
    };
    const byGroup = await crossValidated('group', 'Leave-one-group-out cross-validation: each case predicted by a fit that never saw its model × hardware group', 'cross-validated');
    // Reported beside the figure to judge, with no target of its own: how far the shared factors carry to an unseen architecture.
    await crossValidated('architecture', 'Leave-one-architecture-out cross-validation: each case predicted by a fit that never saw its attention × MLP class', 'leave-one-architecture-out');
    if (byGroup === null) return;
    const { errors } = byGroup;
    const groups = foldsOf(prepared, 'group').length;
    const met = METRICS.every((m) => errors[m] <= TARGETS[m]) && byGroup.worst <= GROUP_TPOT_TARGET;
    console.log(`fitted factors: ${factors.length} (per hardware family and engine feature) + an acceptance table of ${Object.keys(calibration.acceptance.models).length} models × ${Object.keys(calibration.acceptance.datasets).length} datasets (from the published accept lengths)`);
    console.log(`targets (leave-one-group-out) ${met && failed.length === 0 ? 'met' : 'NOT met'}; ${groups} groups, ${foldsOf(prepared, 'architecture').length} architecture classes, ${prepared.length} cases (${failed.length} could not run), ${((performance.now() - started) / 1000).toFixed(0)} s`);
    if (values.write) {
      const stored: FittedFile & { $comment: string } = {
        $comment: JSON.parse(readFileSync(FITTED_FILE, 'utf8')).$comment,
        factors: Object.fromEntries(factors.map((name) => [name, calibration.factors[name]!])),
        acceptance: calibration.acceptance,
        crossValidation: {
          meanTpot: Number(errors.tpotMs.toFixed(4)),
          outputThroughput: Number(errors.outputTps.toFixed(4)),
          meanTtft: Number(errors.ttftMs.toFixed(4)),
          cases: prepared.length,
          groups,
        },
      };
      writeFileSync(FITTED_FILE, `${JSON.stringify(stored, null, 2)}\n`);
      console.log(`stored the fit in ${FITTED_FILE.replace(`${root}/`, '')}`);
    }
  } finally {
    await simulator.close();
  }
}

// A missing training set or a bad flag is one line and an exit status, not a stack trace.
try {
  await main();
} catch (error) {
  const badFlag = (error as { code?: unknown }).code?.toString().startsWith('ERR_PARSE_ARGS') === true;
  if (!(error instanceof UserError) && !badFlag) throw error;
  process.stderr.write(`predict-accuracy: error: ${(error as Error).message}\n`);
  process.exitCode = error instanceof UserError ? error.exitCode : 2;
}
