/**
 * Calibration of the simulated engine against every published bench_serving run (shared/reference/logs),
 * single-instance and PD-separated: recipe launch flags + hardware + bench workload → predicted block
 * metrics vs published ones. Factors live per hardware family / engine feature (src/sim/model/efficiency.ts),
 * never per case. Bounds: mean TPOT and output throughput ±15%, mean TTFT ±30%.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CALIBRATION_CASES,
  PD_CALIBRATION_CASES,
  predictCalibrationCase,
  type Predicted,
  type Published,
} from '../src/sim/predict/calibration-cases.js';

const COLUMNS: Array<[keyof Published, string]> = [
  ['durationS', 'dur s'],
  ['meanTtftMs', 'TTFT mean'],
  ['medianTtftMs', 'TTFT med'],
  ['meanTpotMs', 'TPOT mean'],
  ['meanItlMs', 'ITL mean'],
  ['medianItlMs', 'ITL med'],
  ['outputThroughput', 'out tok/s'],
  ['acceptLength', 'accept'],
];

function cell(predicted: number | null | undefined, published: number | undefined): string {
  if (predicted === null || predicted === undefined) return '-'.padStart(20);
  const text = predicted >= 100 ? predicted.toFixed(0) : predicted.toFixed(2);
  if (published === undefined) return text.padStart(20);
  const err = ((predicted - published) / published) * 100;
  return `${text} (${err >= 0 ? '+' : ''}${err.toFixed(0)}%)`.padStart(20);
}

const FILTER = process.env.SIM_CALIBRATION_CASE;

describe('simulator calibration against published runs', () => {
  for (const c of [...CALIBRATION_CASES, ...PD_CALIBRATION_CASES]) {
    if (FILTER && !c.name.includes(FILTER)) continue;
    test(c.name, () => {
      const p: Predicted = predictCalibrationCase(c);
      console.log(
        [
          c.name,
          `            ${COLUMNS.map(([, title]) => title.padStart(20)).join('')}`,
          `  predicted ${COLUMNS.map(([k]) => cell(p[k], c.published[k])).join('')}`,
          `  published ${COLUMNS.map(([k]) => cell(c.published[k] ?? null, undefined)).join('')}`,
        ].join('\n'),
      );
      const within = (key: 'meanTpotMs' | 'outputThroughput' | 'meanTtftMs', bound: number): void => {
        const err = Math.abs(p[key] - c.published[key]) / c.published[key];
        assert.ok(err <= bound, `${c.name}: ${key} predicted ${p[key].toFixed(2)} vs published ${c.published[key]} (${(err * 100).toFixed(0)}% > ${bound * 100}%)`);
      };
      within('meanTpotMs', 0.15);
      within('outputThroughput', 0.15);
      within('meanTtftMs', 0.3);
    });
  }
});
