/**
 * Runs the simulated server on its own worker thread. `bench --sim` and `sweep --sim` start the
 * sim inside the benchmarking process; sharing one event loop would let the client's parsing delay
 * the sim's writes and the sim's bursts delay the client's timestamps. A worker thread has its own
 * loop (and can use the other core), while remaining one command and one process.
 */
import { Worker } from 'node:worker_threads';
import { UserError } from '../../core/errors.js';
import type { LaunchConfig } from '../types.js';
import { summarizeLateness, type LatenessSummary } from '../truth/lateness-verdict.js';

export interface SimThreadHandle {
  url: string;
  port: number;
  launch: LaunchConfig;
  /** How late the sim wrote its chunks compared with its model's schedule, so far. */
  writeLateness(): Promise<LatenessSummary>;
  close(): Promise<void>;
}

/** Messages the worker posts back. */
export type SimThreadMessage =
  | { kind: 'listening'; url: string; port: number; launch: LaunchConfig }
  | { kind: 'failed'; message: string; exitCode: number }
  | { kind: 'lateness'; summary: LatenessSummary }
  | { kind: 'closed' };

/** Starts `startSimServer(argv, { host, port: 0, quiet: true, recordWrites: true })` on a worker thread. */
export function startSimThread(argv: readonly string[], host = '127.0.0.1'): Promise<SimThreadHandle> {
  const entry = new URL(import.meta.url.endsWith('.ts') ? './sim-worker.ts' : './sim-worker.js', import.meta.url);
  // Under tsx (tests, scripts) the worker needs the same TypeScript loader as its parent.
  const execArgv = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const worker = new Worker(entry, { workerData: { argv: [...argv], host }, execArgv });
  return new Promise((resolve, reject) => {
    const onExit = (code: number): void => reject(new UserError(`the simulated server thread stopped (exit ${code}) before listening`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (message: SimThreadMessage) => {
      worker.off('exit', onExit);
      if (message.kind === 'failed') {
        void worker.terminate();
        reject(new UserError(message.message, message.exitCode));
        return;
      }
      if (message.kind !== 'listening') return;
      // A thread that has died answers nothing: later calls must not wait for it.
      let exited = false;
      worker.once('exit', () => (exited = true));
      resolve({
        url: message.url,
        port: message.port,
        launch: message.launch,
        writeLateness: () =>
          new Promise<LatenessSummary>((done) => {
            if (exited) return done(summarizeLateness([]));
            const onReply = (reply: SimThreadMessage): void => {
              if (reply.kind !== 'lateness') return;
              worker.off('message', onReply);
              done(reply.summary);
            };
            worker.on('message', onReply);
            worker.postMessage('lateness');
          }),
        close: () =>
          new Promise<void>((done) => {
            if (exited) return done();
            worker.once('exit', () => done());
            worker.postMessage('close');
          }),
      });
    });
  });
}
