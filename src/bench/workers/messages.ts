/**
 * What crosses between the main thread and a load worker. Every absolute time in these messages
 * is on the shared clock (see clock.ts); everything else is plain structured-clone data.
 */
import type { ExecutorOptions } from '../runner/executor.js';
import type { SilentTransfers } from '../transport/http-pool.js';
import type { LoopHealthSample } from '../selfcheck/verdict.js';
import type { RequestInput, RequestOutput } from '../types.js';

/**
 * What a worker needs to build the same request executor as the main thread (`workerData`); it
 * makes its own pool (with `streamIdleTimeout`) and forwards `--print-requests` lines to the main thread.
 */
export type LoadWorkerConfig = Omit<ExecutorOptions, 'pool' | 'print'> & {
  streamIdleTimeout: number;
  /** Raise the worker's loop under SCHED_FIFO for the measured phase (`--realtime`). */
  realtime: boolean;
  /** The measured phase repeats (`--num-runs`): keep each prepared request for the next run instead of dropping it once sent. */
  keepPrepared: boolean;
};

export type ToWorker =
  /** Build request `id`'s bytes now, before it is due, and keep them until it is sent. */
  | { kind: 'prepare'; id: number; input: RequestInput }
  /** Send prepared request `id` (a whole conversation in multi-turn mode); due at `dueAt` (shared clock), after `queueTime` s waiting for a slot. */
  | { kind: 'send'; id: number; queueTime: number; dueAt: number }
  /** Open `count` connections to `url` before the measured phase (the warm pool). */
  | { kind: 'prewarm'; url: string; count: number }
  /** Everything is prepared: collect garbage now, before the measured phase (core/settle-heap.ts). */
  | { kind: 'settle-heap' }
  /** The measured phase starts now: restart the self-check window (warmup stays out of it). */
  | { kind: 'measure' }
  /** Ctrl-C grace expired: fail everything in flight and anything sent later. */
  | { kind: 'abort-all'; message: string }
  /** The measured phase is over: report the loop's health over it and stop watching. */
  | { kind: 'end-measure' }
  /** The benchmark is over: close the pool, exit. */
  | { kind: 'finish' };

export type FromWorker =
  | { kind: 'ready' }
  /** One output per request (per turn in multi-turn mode); `startTime` on the shared clock. */
  | { kind: 'done'; id: number; outputs: RequestOutput[] }
  | { kind: 'print'; line: string }
  /** The warm pool is open: how many connections, and why it stopped short (the error's message), if it did. */
  | { kind: 'prewarmed'; opened: number; error: string | null }
  /** The heap is collected. */
  | { kind: 'heap-settled' }
  /** The worker's silent transfers changed (sent at most once a second, for the progress line). */
  | { kind: 'silence'; silent: SilentTransfers }
  /** The loop's self-check over its working window (the answer to `end-measure`); null when it was never given a request. */
  | { kind: 'health'; sample: LoopHealthSample | null };
