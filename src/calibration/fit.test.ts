import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptanceTable } from '../sim/model/acceptance-table.js';
import { FACTOR_SPECS, type Calibration } from '../sim/model/efficiency.js';
import type { PredictedFigures, PreparedCase } from './case-runner.js';
import { crossValidate, medianAbsoluteErrors } from './cross-validation.js';
import { caseUsesFactor, caseWeights, fitFactors, hasConverged, type CaseSimulator } from './fit.js';

/**
 * A stand-in for the engine: each case's figures are a known function of three factors and of the
 * case's own load, so a fit can be checked against the values that made the "published" figures.
 */
const TRUE = { 'nvidia.kernelScale': 1.6, 'nvidia.memory': 0.7, 'host.launchUs': 70 };

function figures(load: number, prefillTokens: number, f: Readonly<Record<string, number>>): PredictedFigures {
  const tpotMs = 8 * f['nvidia.kernelScale']! + (load * 0.2) / f['nvidia.memory']!;
  const ttftMs = 20 + (f['host.launchUs']! * 1.5) + prefillTokens / 100;
  return { tpotMs, ttftMs, outputTps: (load * 1000) / tpotMs, acceptLength: null, durationS: 1, medianTtftMs: ttftMs, itlMs: tpotMs };
}

function fakeCase(group: string, load: number, prefillTokens: number, family = 'nvidia'): PreparedCase {
  const published = figures(load, prefillTokens, TRUE);
  return {
    group,
    case: { published: { ...published, acceptLength: null }, referenceLog: false, load, prefillTokens },
    resolved: [{ hardware: { family }, speculative: null, expertAllToAll: false, prefillContextParallel: 1, model: {} }],
  } as unknown as PreparedCase;
}

const cases = [
  fakeCase('a × x', 1, 500),
  fakeCase('a × x', 16, 4000),
  fakeCase('a × x', 64, 8000),
  fakeCase('b × x', 4, 1000),
  fakeCase('b × x', 100, 2000),
  fakeCase('c × y', 32, 3000),
];

/** Simulates the stand-in over `list`, counting how many case runs the fit asked for. */
function simulator(list: readonly PreparedCase[] = cases): CaseSimulator & { runs: number } {
  const sim = {
    runs: 0,
    async simulate(indices: readonly number[], calibration: Calibration) {
      sim.runs += indices.length;
      const f = calibration.factors!;
      return indices.map((i) => {
        const c = list[i]!.case as unknown as { load: number; prefillTokens: number };
        return figures(c.load, c.prefillTokens, f);
      });
    },
  };
  return sim;
}

const factors = Object.keys(TRUE);
const start = { 'nvidia.kernelScale': 1, 'nvidia.memory': 0.8, 'host.launchUs': 30 };

describe('fitFactors', () => {
  test('recovers the factors that made the published figures (the priors pull a little)', async () => {
    const sim = simulator();
    const before = medianAbsoluteErrors(cases, (await sim.simulate(cases.map((_, i) => i), { factors: start })).map((f, index) => ({ index, figures: f })));
    assert.ok(before.tpotMs > 0.2 && before.ttftMs > 0.2, JSON.stringify(before));
    const fit = await fitFactors({ cases, indices: cases.map((_, i) => i), simulator: sim, factors, start, acceptance: acceptanceTable([]), maxIterations: 30, refreshJacobian: true });
    const errors = medianAbsoluteErrors(cases, fit.predictions.map((f, index) => ({ index, figures: f })));
    assert.ok(errors.tpotMs < 0.05 && errors.outputTps < 0.05 && errors.ttftMs < 0.05, JSON.stringify(errors));
    for (const name of factors) assert.ok(Math.abs(fit.factors[name]! / TRUE[name as keyof typeof TRUE] - 1) < 0.15, `${name} ${fit.factors[name]}`);
    assert.equal(fit.jacobian.size, cases.length);
  });

  test('a factor of another hardware family never re-runs these cases', async () => {
    const sim = simulator();
    await fitFactors({ cases, indices: cases.map((_, i) => i), simulator: sim, factors: ['amd.memory'], start, acceptance: acceptanceTable([]), maxIterations: 0, refreshJacobian: false });
    assert.equal(sim.runs, cases.length);
    assert.equal(caseUsesFactor(cases[0]!, 'amd.memory'), false);
    assert.equal(caseUsesFactor(cases[0]!, 'nvidia.memory'), true);
    assert.equal(caseUsesFactor(cases[0]!, 'spec.cpuUs'), false);
    assert.equal(caseUsesFactor(cases[0]!, 'frontEnd.ingestUs'), true);
  });

  test('a step that gains little but still moves a factor does not end the fit', () => {
    assert.equal(hasConverged(0.0005, [0.001, -0.01]), true);
    assert.equal(hasConverged(0.0005, [0.001, -0.3]), false);
    assert.equal(hasConverged(0.05, [0.001, 0.001]), false);
  });

  test('large groups weigh less per case', () => {
    const weights = caseWeights(cases);
    assert.ok(Math.abs(weights[0]! - 1 / Math.sqrt(3)) < 1e-12);
    assert.equal(weights[5], 1);
  });
});

describe('crossValidate', () => {
  test('predicts every case once, each with a fit that never saw its group', async () => {
    const sim = simulator();
    const full = await fitFactors({ cases, indices: cases.map((_, i) => i), simulator: sim, factors, start, acceptance: acceptanceTable([]), maxIterations: 30, refreshJacobian: true });
    const { heldOut, folds } = await crossValidate(cases, sim, { by: 'group', factors, start: full.factors, maxIterations: 10, jacobian: full.jacobian });
    assert.deepEqual(heldOut.map((h) => h.index), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(folds.map((f) => [f.name, f.heldOut]), [['a × x', [0, 1, 2]], ['b × x', [3, 4]], ['c × y', [5]]]);
    // The stand-in is the truth for every group, so held-out predictions stay close too.
    const errors = medianAbsoluteErrors(cases, heldOut);
    assert.ok(errors.tpotMs < 0.05, JSON.stringify(errors));
  });

  test('a factor only the held-out fold moves falls back to its prior, and the fold says so', async () => {
    const mixed = [...cases, fakeCase('d × z', 8, 1000, 'amd')];
    const withAmd = [...factors, 'amd.memory'];
    const sim = simulator(mixed);
    const full = await fitFactors({ cases: mixed, indices: mixed.map((_, i) => i), simulator: sim, factors: withAmd, start, acceptance: acceptanceTable([]), maxIterations: 0, refreshJacobian: true });
    const atFit = { ...full.factors, 'amd.memory': FACTOR_SPECS['amd.memory']!.prior * 2 };
    const seen: Calibration[] = [];
    const spy: CaseSimulator = { simulate: (indices, calibration) => (seen.push(calibration), sim.simulate(indices, calibration)) };
    const { heldOut, folds } = await crossValidate(mixed, spy, { by: 'group', factors: withAmd, start: atFit, maxIterations: 2, jacobian: full.jacobian, only: ['c × y', 'd × z'] });
    assert.deepEqual(folds.map((f) => [f.name, f.atPrior]), [['c × y', []], ['d × z', ['amd.memory']]]);
    assert.deepEqual(heldOut.map((h) => h.index), [5, 6]);
    // The held-out AMD case is predicted with the prior, not with the full fit's value (which it shaped).
    assert.equal(seen.at(-1)!.factors!['amd.memory'], FACTOR_SPECS['amd.memory']!.prior);
  });
});
