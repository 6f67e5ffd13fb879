/**
 * Spreads a configuration search over worker threads (predictions are CPU-bound and independent).
 * A candidate stays on the worker that first evaluated it, so its refinement reuses the
 * predictions that worker already made.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { UserError } from '../core/errors.js';
import type { ConfigSearchSpec } from './config-context.js';
import type { CandidateEvaluator } from './config-search.js';
import type { ConfigCandidate } from './config-space.js';
import { fromWire, type EvaluateReply, type EvaluateRequest } from './config-wire.js';

export interface PooledEvaluator extends CandidateEvaluator {
  size: number;
  close(): Promise<void>;
}

interface Pending {
  resolve(reply: EvaluateReply): void;
  reject(error: Error): void;
}

interface Lane {
  worker: Worker;
  inFlight: number;
}

const WORKER_URL = new URL('./config-worker.js', import.meta.url);

/**
 * Worker threads only run compiled JavaScript (a TypeScript source run through tsx cannot start
 * them), and only pay off with a second core; otherwise the caller evaluates in-process.
 */
export function canUseWorkers(): boolean {
  return import.meta.url.endsWith('.js') && availableParallelism() > 1;
}

/** Starts `size` workers, each rebuilding the search context from `spec`. */
export function createPooledEvaluator(spec: ConfigSearchSpec, candidates: readonly ConfigCandidate[], size: number): PooledEvaluator {
  const pending = new Map<number, Pending>();
  const owner = new Map<number, Lane>();
  let nextId = 0;
  const lanes: Lane[] = Array.from({ length: size }, () => {
    const worker = new Worker(WORKER_URL, { workerData: spec });
    worker.on('message', (reply: EvaluateReply) => {
      pending.get(reply.id)?.resolve(reply);
      pending.delete(reply.id);
    });
    worker.on('error', (error) => {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    });
    return { worker, inFlight: 0 };
  });

  return {
    size,
    async evaluate(index, tolerance) {
      const lane = owner.get(index) ?? lanes.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      owner.set(index, lane);
      const request: EvaluateRequest = { id: nextId++, index, tolerance };
      lane.inFlight += 1;
      try {
        const reply = await new Promise<EvaluateReply>((resolve, reject) => {
          pending.set(request.id, { resolve, reject });
          lane.worker.postMessage(request);
        });
        if ('error' in reply) throw reply.error.user ? new UserError(reply.error.message) : new Error(reply.error.message);
        return fromWire(reply.outcome, candidates[index] as ConfigCandidate);
      } finally {
        lane.inFlight -= 1;
      }
    },
    async close() {
      await Promise.all(lanes.map((lane) => lane.worker.terminate()));
    },
  };
}
