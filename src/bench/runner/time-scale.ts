/**
 * A run against a time-scaled sim (`bench --sim` with `--sim-time-scale K`): the sim's engine runs K
 * times slower than the wall clock, so the client stretches its arrival schedule by K and divides
 * every time it measured by K. Rates computed from the divided times come out K times higher, as
 * the engine's own time would give them. Pure.
 */
import type { LoopHealthSample } from '../selfcheck/verdict.js';
import type { RequestOutput } from '../types.js';
import type { ScheduledRequest } from './schedule.js';

/** The schedule in wall time: each release K times later. */
export function stretchSchedule(schedule: readonly ScheduledRequest[], timeScale: number): ScheduledRequest[] {
  return schedule.map((item) => ({ ...item, sendAt: item.sendAt * timeScale }));
}

/** One request's record in the server's time. */
export function outputInServerTime(output: RequestOutput, timeScale: number): RequestOutput {
  const k = timeScale;
  const scaled: RequestOutput = {
    ...output,
    latency: output.latency / k,
    ttft: output.ttft / k,
    itl: output.itl.map((gap) => gap / k),
    startTime: output.startTime / k,
    queueTime: output.queueTime / k,
  };
  if (output.firstReasoningTtft !== undefined) scaled.firstReasoningTtft = output.firstReasoningTtft / k;
  if (output.stampLatenessBound !== undefined) scaled.stampLatenessBound = output.stampLatenessBound / k;
  if (output.sendPhases !== undefined) {
    const { wait, connect, write } = output.sendPhases;
    scaled.sendPhases = { wait: wait / k, connect: connect / k, write: write / k };
  }
  return scaled;
}

/**
 * A sending loop's health in the server's time: its delays, which bound the timing error of what it
 * stamped, divided by K; its CPU share (CPU over wall seconds) kept, as both are the machine's.
 */
export function loopHealthInServerTime(sample: LoopHealthSample, timeScale: number): LoopHealthSample {
  return {
    ...sample,
    delayP50Ms: sample.delayP50Ms / timeScale,
    delayP99Ms: sample.delayP99Ms / timeScale,
    delayMaxMs: sample.delayMaxMs / timeScale,
  };
}

/** What serving a run in real time asks of the machine, read from the same run in the engine's virtual time (the sim's side supplies it). */
export interface ServingDemand {
  /** Median gap between two tokens of one stream (ms of engine time); 0 when no stream has two. */
  typicalStepMs: number;
  /** The most token events due in any window of a few typical steps, per second (engine time). */
  peakEventsPerSecond: number;
}

/** What a run asks of the machine and what the machine keeps (selfcheck/real-time-capacity.ts). */
export interface TimeScaleInputs extends ServingDemand {
  chunkCostUs: number;
  wakeP99Us: number;
}

/**
 * Share of one core the writing and reading of chunks may take at the run's peak: beyond it the
 * chunks of one step go out one after another late enough to show in the gaps.
 */
export const CHUNK_CPU_SHARE = 0.25;
/**
 * Wall length of a step in p99 wake-ups. Within a step the sim writes its chunks, the client reads
 * them and answers a finished stream with its next request, which must reach the engine before the
 * step that virtual time puts it in. README quick start on 2 cores (1.66 ms steps, wake p99
 * 0.16 ms): at 5x (50 wake-ups) one run in five had mean TPOT 6% under `predict`'s, at 10x six of
 * six were within 0.2% (docs/PERFORMANCE.md, "Time-scaled sim").
 */
export const STEP_WAKE_RATIO = 100;
/** The largest factor auto picks: a second of the engine's then takes a minute and a half. */
export const MAX_AUTO_TIME_SCALE = 100;

/**
 * The time scale `--sim-time-scale auto` runs at: the least whole factor that keeps the run's
 * peak chunk work within CHUNK_CPU_SHARE of a core and its typical step STEP_WAKE_RATIO wake-ups
 * long; 1 when real time already does.
 */
export function chooseTimeScale(inputs: TimeScaleInputs): number {
  const cpu = (inputs.peakEventsPerSecond * inputs.chunkCostUs) / 1e6 / CHUNK_CPU_SHARE;
  const step = inputs.typicalStepMs > 0 ? (STEP_WAKE_RATIO * inputs.wakeP99Us) / 1000 / inputs.typicalStepMs : 1;
  return Math.min(MAX_AUTO_TIME_SCALE, Math.max(1, Math.ceil(Math.max(cpu, step) - 1e-9)));
}
