/**
 * The ground truth of truth mode: per request, when each chunk was scheduled and when the server
 * actually wrote it, on the shared monotonic clock (`process.hrtime`, ms). Served at `GET /sim/truth`.
 */
import type { TokenEmission } from '../types.js';

export interface TruthRecord {
  /** When the server received the request. */
  arrivalMs: number;
  /** When the request reached the engine (after its body was read and its prompt tokenized). */
  submittedMs: number;
  scheduledMs: number[];
  actualMs: number[];
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

  /** Opens a request's record as it is handed to the engine. */
  begin(requestId: string, arrivalMs: number, submittedMs: number): void {
    this.records.set(requestId, { arrivalMs, submittedMs, scheduledMs: [], actualMs: [], tokens: [] });
  }

  /** Records one written chunk; a request that was never begun is ignored. */
  record(emission: TokenEmission, scheduledMs: number, actualMs: number): void {
    const record = this.records.get(emission.requestId);
    if (record === undefined) return;
    record.scheduledMs.push(scheduledMs);
    record.actualMs.push(actualMs);
    record.tokens.push(emission.tokens);
  }

  /** Every lateness (actual − scheduled, ms) recorded so far. */
  lateness(): number[] {
    const out: number[] = [];
    for (const record of this.records.values()) {
      for (let i = 0; i < record.actualMs.length; i++) out.push(record.actualMs[i]! - record.scheduledMs[i]!);
    }
    return out;
  }

  snapshot(): TruthSnapshot {
    return { clock: 'process.hrtime', unit: 'ms', requests: Object.fromEntries(this.records) };
  }

  /** Forgets everything recorded (between measurement rounds). */
  clear(): void {
    this.records.clear();
  }
}
