/**
 * Engine time is wall time since the server started, read from `performance.now()`: 1:1
 * (simulator-model §8), or `timeScale` times slower when the process that drives the sim also
 * divides every time it measures by the same factor (`bench --sim` on a machine too small to write
 * the engine's chunks on time). Truth records convert it to `process.hrtime` milliseconds, the
 * monotonic clock every process on the machine shares, so a client in another process can compare.
 */
import { performance } from 'node:perf_hooks';

export class EngineClock {
  /** hrtime ms − performance.now() ms, taken once: both clocks are monotonic and tick together. */
  private readonly hrOffsetMs = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  /** The last rescale (or the start): engine seconds then, and `performance.now()` ms then. */
  private engineAtRescale = 0;
  private wallMsAtRescale = performance.now();
  /** Wall seconds per engine second (≥ 1); 1 until `rescale`. */
  private scale = 1;

  /** Wall seconds per engine second. */
  get timeScale(): number {
    return this.scale;
  }

  /**
   * From now on, `timeScale` wall seconds per engine second; engine time goes on from where it is.
   * Engine times before now map to the wall clock at the new rate, so it is changed between runs,
   * while nothing is in flight.
   */
  rescale(timeScale: number): void {
    const engineNow = this.now();
    this.wallMsAtRescale = performance.now();
    this.engineAtRescale = engineNow;
    this.scale = timeScale;
  }

  /** Engine-clock seconds now. */
  now(): number {
    return this.engineAtRescale + (performance.now() - this.wallMsAtRescale) / 1000 / this.scale;
  }

  /** The shared monotonic clock (`process.hrtime`) in ms, now. */
  hrNowMs(): number {
    return performance.now() + this.hrOffsetMs;
  }

  /** Wall milliseconds from now until an engine-clock time (negative when it has passed). */
  wallMsUntil(engineSeconds: number): number {
    return this.toHrMs(engineSeconds) - this.hrNowMs();
  }

  /** The wall-clock date of an engine-clock time (log timestamps). */
  toDate(engineSeconds: number): Date {
    return new Date(performance.timeOrigin + this.wallMs(engineSeconds));
  }

  /** An engine-clock time expressed on the shared monotonic clock, in ms. */
  toHrMs(engineSeconds: number): number {
    return this.wallMs(engineSeconds) + this.hrOffsetMs;
  }

  /** `performance.now()` ms of an engine-clock time. */
  private wallMs(engineSeconds: number): number {
    return this.wallMsAtRescale + (engineSeconds - this.engineAtRescale) * 1000 * this.scale;
  }
}
