/**
 * The performance model on its training set, under the stored fit (src/sim/model/fitted-factors.json):
 * the reference logs stay within the bounds the sim promises for them (mean TPOT and output
 * throughput ±15%, mean TTFT ±30%), and every published training case runs through the predict
 * pipeline with its own flags. How well the model predicts runs it was not fitted to is
 * bench/predict-accuracy.ts' cross-validation, not this test's.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { prepareCase, simulateCase, type PredictedFigures } from '../src/calibration/case-runner.js';
import type { PredictionCase, PublishedFigures } from '../src/calibration/cases.js';
import { METRICS, REFERENCE_LOG_BOUNDS } from '../src/calibration/fit.js';
import { referenceLogCases, trainingCases } from '../src/calibration/training-set.js';
import { REPO_ROOT } from './helpers/cli.js';

const COLUMNS: Array<[keyof PredictedFigures & keyof PublishedFigures, string]> = [
  ['durationS', 'dur s'],
  ['ttftMs', 'TTFT mean'],
  ['medianTtftMs', 'TTFT med'],
  ['tpotMs', 'TPOT mean'],
  ['itlMs', 'ITL mean'],
  ['outputTps', 'out tok/s'],
  ['acceptLength', 'accept'],
];

function cell(predicted: number | null, published: number | null): string {
  if (predicted === null) return '-'.padStart(20);
  const text = predicted >= 100 ? predicted.toFixed(0) : predicted.toFixed(2);
  if (published === null) return text.padStart(20);
  const err = ((predicted - published) / published) * 100;
  return `${text} (${err >= 0 ? '+' : ''}${err.toFixed(0)}%)`.padStart(20);
}

function report(c: PredictionCase, p: PredictedFigures): string {
  return [
    `${c.id} ${c.name}`,
    `            ${COLUMNS.map(([, title]) => title.padStart(20)).join('')}`,
    `  predicted ${COLUMNS.map(([k]) => cell(p[k], c.published[k])).join('')}`,
    `  published ${COLUMNS.map(([k]) => cell(c.published[k], null)).join('')}`,
  ].join('\n');
}


describe('the reference logs stay within their calibration bounds', () => {
  for (const c of referenceLogCases()) {
    test(c.name, async () => {
      const predicted = simulateCase(await prepareCase(c));
      console.log(report(c, predicted));
      for (const key of METRICS) {
        const bound = REFERENCE_LOG_BOUNDS[key];
        const err = Math.abs(predicted[key] - c.published[key]) / c.published[key];
        assert.ok(err <= bound, `${c.name}: ${key} predicted ${predicted[key].toFixed(2)} vs published ${c.published[key]} (${(err * 100).toFixed(0)}% > ${bound * 100}%)`);
      }
    });
  }
});

describe('every published training case runs through the predict pipeline with its own flags', () => {
  const published = trainingCases(REPO_ROOT).filter((c) => !c.referenceLog);
  test(`${published.length} cases`, async () => {
    assert.ok(published.length >= 33);
    for (const c of published) {
      const predicted = simulateCase(await prepareCase(c));
      for (const key of ['tpotMs', 'ttftMs', 'outputTps'] as const) {
        assert.ok(Number.isFinite(predicted[key]) && predicted[key] > 0, `${c.id} ${c.name}: ${key} = ${predicted[key]}`);
      }
    }
  });
});

describe('bench/predict-accuracy.ts on bad input', () => {
  /** Runs the script; its exit status and standard error. */
  const run = (...args: string[]): Promise<{ code: number; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench', 'predict-accuracy.ts'), ...args], { cwd: REPO_ROOT }, (error, _stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stderr }),
      );
    });

  test('an unknown flag or a missing case file is one line and a non-zero exit, no stack trace', async () => {
    const flag = await run('--bogus');
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /^predict-accuracy: error: .*'--bogus'\n$/);
    const missing = await run('--cases', join(REPO_ROOT, 'no-such-cases.json'));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^predict-accuracy: error: cannot read case file .*no-such-cases\.json.*\n$/);
  });
});
