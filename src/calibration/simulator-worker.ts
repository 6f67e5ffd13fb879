/** Worker-thread entry of the pooled case simulator: prepares the cases it is started with, then simulates on request. */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { simulateCase } from './case-runner.js';
import type { PredictionCase } from './cases.js';
import { prepareAll, type SimulateReply, type SimulateRequest } from './simulator.js';

const port = parentPort;
if (port === null) throw new Error('simulator-worker must run in a worker thread');
const prepared = prepareAll(workerData as PredictionCase[]);

port.on('message', (request: SimulateRequest) => {
  const fail = (error: unknown): void => port.postMessage({ id: request.id, error: (error as Error).message } satisfies SimulateReply);
  prepared.then((cases) => {
    try {
      const seconds: number[] = [];
      const figures = request.indices.map((i) => {
        const started = performance.now();
        const f = simulateCase(cases[i]!, request.calibration);
        seconds.push((performance.now() - started) / 1000);
        return f;
      });
      port.postMessage({ id: request.id, figures, seconds } satisfies SimulateReply);
    } catch (error) {
      fail(error);
    }
  }, fail);
});
