/**
 * The sim `bench --sim` (and a sweep's `--sim` points) measure: the real-time sim started on its
 * own thread, with the time scale planned from the same run in virtual time, and the sim's verdict
 * on its own writes. It composes the sim with the virtual-time client for bench, which knows
 * neither.
 */
import type { SimTarget, StartedSim } from '../bench/index.js';
import { splitCommandLine } from '../core/command-line.js';
import { judgeSimWrites, startEmbeddedSim } from '../sim/index.js';
import { servingDemand } from './virtual/serving-demand.js';

/** The sim of the launch flags `flags` (`--sim "<flags>"`), as bench starts and measures it. */
export function embeddedSimTarget(flags: string): SimTarget {
  const argv = splitCommandLine(flags);
  return {
    flags,
    async start(dataset: string): Promise<StartedSim> {
      const handle = await startEmbeddedSim(argv, dataset);
      return {
        port: handle.port,
        demand: (rows, load) => servingDemand(argv, rows, load),
        setTimeScale: (timeScale) => handle.setTimeScale(timeScale),
        selfCheck: async (timeScale) => judgeSimWrites(await handle.writeLateness(), timeScale).line,
        close: () => handle.close(),
      };
    },
  };
}
