/**
 * Speed of the simulated engine in virtual time: wall-clock seconds to predict each published
 * reference run (calibration cases), with the simulated duration and output tokens per wall second.
 * Run: npx tsx bench/sim-predict.ts
 */
import { performance } from 'node:perf_hooks';
import { CALIBRATION_CASES, PD_CALIBRATION_CASES, predictCalibrationCase } from '../src/sim/predict/calibration-cases.js';

const REPEATS = 3;

console.log(`${'case'.padEnd(48)}${'wall ms (best of 3)'.padStart(22)}${'simulated s'.padStart(14)}${'sim/wall'.padStart(12)}${'out tok/wall s'.padStart(16)}`);
for (const c of [...CALIBRATION_CASES, ...PD_CALIBRATION_CASES]) {
  let best = Infinity;
  let simulated = 0;
  let outputTokens = 0;
  for (let r = 0; r < REPEATS; r++) {
    const start = performance.now();
    const predicted = predictCalibrationCase(c);
    best = Math.min(best, performance.now() - start);
    simulated = predicted.durationS;
    outputTokens = predicted.outputThroughput * predicted.durationS;
  }
  console.log(
    `${c.name.padEnd(48)}${best.toFixed(1).padStart(22)}${simulated.toFixed(1).padStart(14)}${(simulated / (best / 1000)).toFixed(0).padStart(12)}${(outputTokens / (best / 1000)).toExponential(2).padStart(16)}`,
  );
}
