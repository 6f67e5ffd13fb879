/**
 * `--sim-time-scale auto`: the run's demand, from the same workload run through the sim's engine in
 * virtual time, against this machine's measured capacity (runner/time-scale.ts chooses).
 */
import type { BenchRngs } from '../core/rng.js';
import type { BenchRunConfig } from './run-config.js';
import { chooseTimeScale } from './runner/time-scale.js';
import { realTimeCapacity } from './selfcheck/real-time-capacity.js';
import type { StartedSim } from './sim-target.js';
import type { Dataset } from './types.js';

/** The time scale for running `dataset` as `config` says against `sim`; 1 for a truth-mode sim. */
export async function autoTimeScale(sim: StartedSim, config: BenchRunConfig, dataset: Dataset, rngs: BenchRngs, env: NodeJS.ProcessEnv): Promise<number> {
  const demand = sim.demand(dataset.rows, {
    requestRate: config.load.requestRate,
    maxConcurrency: config.load.maxConcurrency,
    // A copy: the run draws its own arrival intervals from the stream afterwards.
    numpy: rngs.numpy.clone(),
    warmupRequests: config.load.warmupRequests,
  });
  if (demand === null) return 1;
  return chooseTimeScale({ ...demand, ...(await realTimeCapacity(env)) });
}
