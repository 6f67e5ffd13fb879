/**
 * Case simulators for the fit: in this thread, or spread over worker threads that each prepare the
 * cases once (a pass over every case is seconds of CPU, and a fit runs hundreds of them).
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../core/module-worker.js';
import type { Calibration } from '../sim/index.js';
import { prepareCase, simulateCase, type PredictedFigures, type PreparedCase } from './case-runner.js';
import type { PredictionCase } from './cases.js';
import type { CaseSimulator } from './fit.js';

/** Simulates prepared cases one after another in this thread. */
export function localSimulator(prepared: readonly PreparedCase[]): CaseSimulator {
  return {
    simulate: async (indices, calibration) => indices.map((i) => simulateCase(prepared[i]!, calibration)),
  };
}

/** A request to a simulator worker, and its reply. */
export interface SimulateRequest {
  id: number;
  indices: number[];
  calibration: Calibration;
}
export type SimulateReply = { id: number; figures: PredictedFigures[]; seconds: number[] } | { id: number; error: string };

export interface PooledSimulator extends CaseSimulator {
  close(): Promise<void>;
}

/**
 * Starts `size` workers (default: one per core), each preparing `cases` itself. Work is split by
 * each case's last measured time, longest first, onto the least-loaded worker.
 */
export async function pooledSimulator(cases: readonly PredictionCase[], size = availableParallelism()): Promise<PooledSimulator> {
  const workers: Worker[] = Array.from({ length: Math.max(1, size) }, () => startModuleWorker(import.meta.url, 'simulator-worker', { workerData: cases }));
  const cost = cases.map(() => 1);
  let nextId = 0;
  const call = (worker: Worker, indices: number[], calibration: Calibration): Promise<PredictedFigures[]> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const onMessage = (reply: SimulateReply): void => {
        if (reply.id !== id) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if ('error' in reply) return reject(new Error(reply.error));
        reply.seconds.forEach((s, k) => (cost[indices[k]!] = s));
        resolve(reply.figures);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.postMessage({ id, indices, calibration } satisfies SimulateRequest);
    });
  return {
    async simulate(indices, calibration) {
      const lanes = workers.map(() => ({ load: 0, indices: [] as number[] }));
      for (const i of [...indices].sort((a, b) => cost[b]! - cost[a]!)) {
        const lane = lanes.reduce((a, b) => (b.load < a.load ? b : a));
        lane.indices.push(i);
        lane.load += cost[i]!;
      }
      const replies = await Promise.all(lanes.map((lane, w) => (lane.indices.length > 0 ? call(workers[w]!, lane.indices, calibration) : [])));
      const byIndex = new Map<number, PredictedFigures>();
      lanes.forEach((lane, w) => lane.indices.forEach((i, k) => byIndex.set(i, replies[w]![k]!)));
      return indices.map((i) => byIndex.get(i)!);
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** Prepares every case (in this thread), for the local simulator and for each worker. */
export function prepareAll(cases: readonly PredictionCase[]): Promise<PreparedCase[]> {
  return Promise.all(cases.map((c) => prepareCase(c)));
}
