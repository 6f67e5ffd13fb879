/**
 * Worker-thread entry of the configuration search: rebuilds the search context from the spec it
 * is started with, then evaluates the candidates the main thread sends, one at a time, keeping
 * each candidate's predictions for its refinement.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../core/errors.js';
import { createSearchContext, type ConfigSearchSpec } from './config-context.js';
import { toWire, type EvaluateReply, type EvaluateRequest } from './config-wire.js';

const port = parentPort;
if (port === null) throw new Error('config-worker must run in a worker thread');
const context = createSearchContext(workerData as ConfigSearchSpec);

port.on('message', (request: EvaluateRequest) => {
  context.evaluator.evaluate(request.index, request.tolerance).then(
    (outcome) => port.postMessage({ id: request.id, outcome: toWire(outcome) } satisfies EvaluateReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, error: { message: (error as Error).message, user: error instanceof UserError } } satisfies EvaluateReply),
  );
});
