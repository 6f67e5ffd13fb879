/**
 * One clock for every load-generating thread. Each thread stamps requests with its own
 * `performance.now()`, whose origin differs per worker by 0.2–0.5 ms; `process.hrtime` is one
 * CLOCK_MONOTONIC for every thread and process (ecosystem notes §7). Absolute times therefore
 * cross threads on the shared clock: a worker adds its offset before posting, the main thread
 * subtracts its own on receipt. Durations (TTFT, ITL, latency) are clock-free and never touched.
 */
import { performance } from 'node:perf_hooks';
import type { RequestOutput } from '../types.js';

/** `process.hrtime` ms − `performance.now()` ms of the calling thread; both tick together, so once per thread suffices. */
export function threadClockOffsetMs(): number {
  return Number(process.hrtime.bigint()) / 1e6 - performance.now();
}

/** A thread-local time (seconds) on the shared clock (seconds). */
export function toSharedSeconds(localSeconds: number, offsetMs: number): number {
  return localSeconds + offsetMs / 1000;
}

/** A shared-clock time (seconds) on the thread whose offset is `offsetMs`. */
export function fromSharedSeconds(sharedSeconds: number, offsetMs: number): number {
  return sharedSeconds - offsetMs / 1000;
}

/** `startTime` 0 means "never sent" (RequestOutput) and stays 0 on every clock. */
function convertStart(output: RequestOutput, convert: (seconds: number) => number): RequestOutput {
  return output.startTime === 0 ? output : { ...output, startTime: convert(output.startTime) };
}

/** Outputs with every start moved by `seconds` (onto another process's clock: a sharded run's merge); 0 stays 0. */
export function outputsShiftedBy(outputs: readonly RequestOutput[], seconds: number): RequestOutput[] {
  return outputs.map((output) => convertStart(output, (t) => t + seconds));
}

/** Worker side: outputs stamped on this thread's clock, re-expressed on the shared clock before posting. */
export function outputsToSharedClock(outputs: readonly RequestOutput[], offsetMs: number): RequestOutput[] {
  return outputs.map((output) => convertStart(output, (t) => toSharedSeconds(t, offsetMs)));
}

/** Main side: outputs received on the shared clock, re-expressed on this thread's run clock. */
export function outputsFromSharedClock(outputs: readonly RequestOutput[], offsetMs: number): RequestOutput[] {
  return outputs.map((output) => convertStart(output, (t) => fromSharedSeconds(t, offsetMs)));
}
