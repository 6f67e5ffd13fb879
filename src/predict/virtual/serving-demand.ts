/**
 * What serving a run in real time asks of the machine, read from the same run in virtual time: how
 * often a running stream's chunks are due (the engine's typical step) and how many chunks fall due
 * per second at the busiest moment. `bench --sim-time-scale auto` weighs them against what the
 * machine keeps on time (bench/sim-time-scale.ts); the peak is counted over `WINDOW_STEPS` typical steps.
 */
import type { DatasetRow, RequestOutput, ServingDemand } from '../../bench/index.js';
import { parseLaunchArgs, type LaunchDeployment } from '../../deployment/index.js';
import { createSimEngine, resolveSimDeployment } from '../../sim/index.js';
import { engineFor } from '../prediction.js';
import { predictRun, type PredictOptions } from './virtual-client.js';

/**
 * Width of the window the peak rate is counted over, in typical steps: a few steps, so that a burst
 * of streams decoding together shows at its own rate even when it lasts a few dozen milliseconds.
 */
export const WINDOW_STEPS = 4;
/** The window when no stream has two tokens (engine seconds). */
const FIRST_TOKENS_WINDOW_S = 0.01;

/**
 * The demand of a run's outputs. Every token counts as an event, so a chunk carrying several tokens
 * (speculative decoding) counts several times and its gap is split among them: both err towards
 * more demand than the chunks make.
 */
export function demandOf(outputs: readonly RequestOutput[]): ServingDemand {
  const times: number[] = [];
  const gaps: number[] = [];
  for (const output of outputs) {
    if (!output.success) continue;
    let at = output.startTime + output.ttft;
    times.push(at);
    for (const gap of output.itl) {
      at += gap;
      times.push(at);
      if (gap > 0) gaps.push(gap);
    }
  }
  times.sort((a, b) => a - b);
  gaps.sort((a, b) => a - b);
  const typicalStep = gaps.length === 0 ? 0 : gaps[Math.floor((gaps.length - 1) / 2)]!;
  const window = typicalStep > 0 ? WINDOW_STEPS * typicalStep : FIRST_TOKENS_WINDOW_S;
  let peak = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= window) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return { typicalStepMs: typicalStep * 1000, peakEventsPerSecond: peak / window };
}

/**
 * The demand of `rows` sent as `options` says to a sim started with the launch flags `argv`; null
 * in truth mode, whose times are the ones it is told, to be measured in real time.
 */
export function servingDemand(argv: readonly string[], rows: readonly DatasetRow[], options: PredictOptions): ServingDemand | null {
  const { launch, truth } = parseLaunchArgs(argv);
  if (truth !== null) return null;
  const engine = createSimEngine(launch, resolveSimDeployment(launch, null), null);
  return demandOf(predictRun(engine, rows, options).outputs);
}

/**
 * The demand of `rows` sent to a PD deployment (prefill and decode sims behind a router, all run on
 * one time scale): its composed engine, as predict runs it, serving `dataset`'s requests.
 */
export function deploymentDemand(deployment: LaunchDeployment, dataset: string, rows: readonly DatasetRow[], options: PredictOptions): ServingDemand {
  return demandOf(predictRun(engineFor(deployment, dataset), rows, options).outputs);
}
