/**
 * A full garbage collection after the sim refuses a big body it had to read. The body's decoded
 * copies (the JSON text, the prompt string: 30 MB each for a 30 MB prompt) are larger than the sim
 * thread's young generation, so they go straight to old space, which V8 collects only once its heap
 * has grown past a limit of its own: 60 refused 30 MB prompts left `servebench sim` at 337–372 MB
 * from 196 MB, garbage that stayed until the next full collection (docs/RELIABILITY.md). One full
 * collection a little after such a refusal gives it back; refusals within the delay share it, so
 * a client repeating them costs at most one collection per delay.
 */
import { settleHeap } from '../../core/settle-heap.js';

/** A body at least this long leaves large objects (V8 allocates objects over 128 KiB as such) worth a collection. */
export const COLLECT_AFTER_BODY_BYTES = 1 << 20;
/** Refusals this close together share one collection. */
const COLLECTION_DELAY_MS = 1000;

export class HeapCollection {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly collect: () => void = settleHeap,
    private readonly delayMs = COLLECTION_DELAY_MS,
  ) {}

  /** Notes a refused request that read `bodyBytes` into memory; a big one gets a collection, soon. */
  afterRefusal(bodyBytes: number): void {
    if (bodyBytes < COLLECT_AFTER_BODY_BYTES || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.collect();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Drops a pending collection (the server is closing). */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
