/**
 * The simulated server `bench --sim` starts, plans its time scale against and measures. The
 * command that composes bench with the sim supplies it, so bench itself loads no engine and the
 * sim knows nothing of bench.
 */
import type { NumpyRandomState } from '../core/rng.js';
import type { ServingDemand } from './runner/time-scale.js';
import type { DatasetRow } from './types.js';

/** The load a run puts on the sim, as its engine's virtual-time run of the same rows takes it. */
export interface DemandLoad {
  requestRate: number;
  maxConcurrency: number | null;
  /** The run's numpy stream (a copy: the run draws its own arrival intervals from it afterwards). */
  numpy: NumpyRandomState;
  warmupRequests: number;
}

/** A sim started for one bench session. */
export interface StartedSim {
  readonly port: number;
  /** What serving `rows` under `load` in real time asks of the machine; null when the sim needs no time scale (truth mode). */
  demand(rows: readonly DatasetRow[], load: DemandLoad): ServingDemand | null;
  /** Runs the engine `timeScale` wall seconds per engine second from now on. */
  setTimeScale(timeScale: number): Promise<void>;
  /** The sim's verdict on how late it wrote the run's chunks, the line printed under the result block (figures in engine time at `timeScale`). */
  selfCheck(timeScale: number): Promise<string>;
  close(): Promise<void>;
}

/** The sim of a `--sim "<SGLang flags>"`, not yet started. */
export interface SimTarget {
  /** The SGLang launch flags as given. */
  readonly flags: string;
  /** Starts it, told which dataset the run sends (its speculative acceptance depends on it) unless the flags say. */
  start(dataset: string): Promise<StartedSim>;
}
