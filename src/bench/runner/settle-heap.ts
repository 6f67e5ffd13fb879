/**
 * A full garbage collection before the measured phase, on each thread that sends. Every request is
 * built before the clock starts (send-request.ts); left in V8's young generation, those bytes would
 * be copied by the first scavenges of the run (a scavenge's pause grows with what survives it), in
 * the middle of a burst's first wave, while its first tokens arrive. Collected now, they are old
 * and no scavenge touches them.
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
