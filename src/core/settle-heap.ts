/**
 * A full garbage collection of the calling thread's heap, now. Bench runs one on each thread that
 * sends, before the measured phase: every request is built before the clock starts
 * (send-request.ts), and left in V8's young generation those bytes would be copied by the first
 * scavenges of the run, in the middle of a burst's first wave; collected now, they are old and no
 * scavenge touches them. The sim runs one after refusing big bodies (sim/server/heap-collection.ts).
 *
 * Node exposes `gc()` only under `--expose-gc`; the flag set at run time takes effect for contexts
 * created afterwards, so a fresh context hands the function over.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null = null;

/** Collects garbage now, the whole heap of this thread. */
export function settleHeap(): void {
  if (collect === null) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
