/**
 * Engine time is wall time since the server started, 1:1 (simulator-model §8), read from
 * `performance.now()`; truth records convert it to `process.hrtime` milliseconds, the monotonic
 * clock every process on the machine shares, so a client in another process can compare.
 */
import { performance } from 'node:perf_hooks';

export class EngineClock {
  private readonly originMs = performance.now();
  /** hrtime ms − performance.now() ms, taken once: both clocks are monotonic and tick together. */
  private readonly hrOffsetMs = Number(process.hrtime.bigint()) / 1e6 - performance.now();

  /** Engine-clock seconds now. */
  now(): number {
    return (performance.now() - this.originMs) / 1000;
  }

  /** The shared monotonic clock (`process.hrtime`) in ms, now. */
  hrNowMs(): number {
    return performance.now() + this.hrOffsetMs;
  }

  /** The wall-clock date of an engine-clock time (log timestamps). */
  toDate(engineSeconds: number): Date {
    return new Date(performance.timeOrigin + this.originMs + engineSeconds * 1000);
  }

  /** An engine-clock time expressed on the shared monotonic clock, in ms. */
  toHrMs(engineSeconds: number): number {
    return this.originMs + engineSeconds * 1000 + this.hrOffsetMs;
  }
}
