/**
 * SGLang's Python front end (HTTP server + tokenizer manager) as two serial resources in engine time.
 * Ingestion: each request costs `ingestUs`; requests arriving while the front end is busy join its
 * busy period and reach the scheduler together when it drains (a 200-request burst starts as one batch).
 * Output: every streamed chunk costs `chunkUs`, one after another, which staggers a step's emissions.
 */
import type { FrontEndCosts } from '../model/efficiency.js';

interface IngestBatch<T> {
  /** When the last request of the busy period has been ingested. */
  busyEnd: number;
  items: T[];
}

export class FrontEnd<T> {
  private readonly batches: IngestBatch<T>[] = [];
  private outputFree = Number.NEGATIVE_INFINITY;

  constructor(private readonly costs: FrontEndCosts) {}

  /** Accepts a request arriving at `time`. */
  ingest(item: T, time: number): void {
    const cost = this.costs.ingestUs * 1e-6;
    const last = this.batches[this.batches.length - 1];
    if (last && time <= last.busyEnd) {
      last.busyEnd += cost;
      last.items.push(item);
    } else {
      this.batches.push({ busyEnd: time + cost, items: [item] });
    }
  }

  /** When the oldest pending batch reaches the scheduler, or undefined. */
  nextRelease(): number | undefined {
    const first = this.batches[0];
    return first ? first.busyEnd + this.costs.hopUs * 1e-6 : undefined;
  }

  /** Removes and returns the requests that reach the scheduler at or before `time`. */
  release(time: number): T[] {
    const out: T[] = [];
    while (this.batches.length > 0 && this.nextRelease()! <= time) out.push(...this.batches.shift()!.items);
    return out;
  }

  /** Drops a request still being ingested; true when it was there. */
  drop(predicate: (item: T) => boolean): boolean {
    for (const batch of this.batches) {
      const at = batch.items.findIndex(predicate);
      if (at >= 0) {
        batch.items.splice(at, 1);
        return true;
      }
    }
    return false;
  }

  get pending(): number {
    return this.batches.reduce((sum, b) => sum + b.items.length, 0);
  }

  /** Due time of a chunk whose tokens are ready at `ready`: after every earlier chunk has been written. */
  scheduleChunk(ready: number): number {
    const due = Math.max(ready, this.outputFree) + this.costs.chunkUs * 1e-6;
    this.outputFree = due;
    return due;
  }
}
