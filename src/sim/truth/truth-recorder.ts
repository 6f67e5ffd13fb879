/**
 * What the server records of its own writes: the lateness of every chunk as a histogram (a run's
 * self-check, constant memory), and, in truth mode or on request, per request when each chunk was
 * scheduled and when it was actually written, on the shared monotonic clock (`process.hrtime`, ms),
 * served at `GET /sim/truth` — the ground truth a client's measurements are compared with.
 */
import type { TokenEmission } from '../types.js';
import { LatenessHistogram } from './lateness-histogram.js';
import type { LatenessSummary } from './lateness-verdict.js';

export interface TruthRecord {
  /** When the server received the request. */
  arrivalMs: number;
  /** When the request reached the engine (after its body was read and its prompt tokenized). */
  submittedMs: number;
  scheduledMs: number[];
  /** When the sim began writing each chunk: no client can have it earlier. */
  actualMs: number[];
  /** When the write carrying each chunk had returned: the bytes were with the kernel by then. */
  writtenMs: number[];
  /** Tokens carried by each chunk. */
  tokens: number[];
}

export interface TruthSnapshot {
  clock: 'process.hrtime';
  unit: 'ms';
  requests: Record<string, TruthRecord>;
}

export class TruthRecorder {
  private readonly records = new Map<string, TruthRecord>();
  private readonly histogram = new LatenessHistogram();

  /** `keepRequests`: also keep every request's per-chunk record (truth mode, `GET /sim/truth`). */
  constructor(readonly keepRequests: boolean) {}

  /** Opens a request's record as it is handed to the engine. */
  begin(requestId: string, arrivalMs: number, submittedMs: number): void {
    if (!this.keepRequests) return;
    this.records.set(requestId, { arrivalMs, submittedMs, scheduledMs: [], actualMs: [], writtenMs: [], tokens: [] });
  }

  /**
   * Records one written chunk (per request only if it was begun). Its lateness goes into the
   * histogram in engine time: the wall lateness divided by the `timeScale` the engine ran at when the
   * chunk was written, so runs at different scales each count at their own.
   */
  record(emission: TokenEmission, scheduledMs: number, actualMs: number, writtenMs: number, timeScale = 1): void {
    this.histogram.add((actualMs - scheduledMs) / timeScale);
    const record = this.records.get(emission.requestId);
    if (record === undefined) return;
    record.scheduledMs.push(scheduledMs);
    record.actualMs.push(actualMs);
    record.writtenMs.push(writtenMs);
    record.tokens.push(emission.tokens);
  }

  /** Lateness (actual − scheduled write time, in engine time) of every chunk recorded so far. */
  latenessSummary(): LatenessSummary {
    return this.histogram.summary();
  }

  snapshot(): TruthSnapshot {
    return { clock: 'process.hrtime', unit: 'ms', requests: Object.fromEntries(this.records) };
  }

  /** Forgets everything recorded (between measurement rounds). */
  clear(): void {
    this.records.clear();
    this.histogram.clear();
  }
}
