/**
 * Speed of the simulated engine in virtual time: wall-clock seconds to predict each training case
 * (the published runs and the reference logs), with the simulated duration and output tokens per
 * wall second. Run: npx tsx bench/sim-predict.ts
 */
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { prepareCase, simulateCase, trainingCases } from '../src/calibration/index.js';

const REPEATS = 3;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

console.log(`${'case'.padEnd(60)}${'wall ms (best of 3)'.padStart(22)}${'simulated s'.padStart(14)}${'sim/wall'.padStart(12)}${'out tok/wall s'.padStart(16)}`);
for (const c of trainingCases(root)) {
  const prepared = await prepareCase(c);
  let best = Infinity;
  let simulated = 0;
  let outputTokens = 0;
  for (let r = 0; r < REPEATS; r++) {
    const start = performance.now();
    const predicted = simulateCase(prepared);
    best = Math.min(best, performance.now() - start);
    simulated = predicted.durationS;
    outputTokens = predicted.outputTps * predicted.durationS;
  }
  console.log(
    `${`${c.id} ${c.name}`.slice(0, 58).padEnd(60)}${best.toFixed(1).padStart(22)}${simulated.toFixed(1).padStart(14)}${(simulated / (best / 1000)).toFixed(0).padStart(12)}${(outputTokens / (best / 1000)).toExponential(2).padStart(16)}`,
  );
}
