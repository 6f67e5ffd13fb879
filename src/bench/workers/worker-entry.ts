/**
 * A load worker: its own keep-alive pool and event loop, preparing and sending what the main
 * thread hands it through the very executor the single-threaded run uses, so its records are the
 * ones the main thread would have produced. Times cross on the shared clock.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createExecutor, type LocalPrepared } from '../runner/executor.js';
import { settleHeap } from '../../core/settle-heap.js';
import type { LoopHealthMonitor } from '../selfcheck/monitor.js';
import { HttpPool } from '../transport/http-pool.js';
import { fromSharedSeconds, outputsToSharedClock, threadClockOffsetMs } from './clock.js';
import type { FromWorker, LoadWorkerConfig, ToWorker } from './messages.js';
import { startThreadHealthMonitor } from './thread-health.js';

const port = parentPort!;
const config = workerData as LoadWorkerConfig;
const offsetMs = threadClockOffsetMs();
const post = (message: FromWorker): void => port.postMessage(message);
const pool = new HttpPool({ streamIdleTimeout: config.streamIdleTimeout });
const executor = createExecutor({ ...config, pool, print: (line) => post({ kind: 'print', line }) });
/** Requests prepared and not yet sent (or kept for the next run), by the main thread's id. */
const prepared = new Map<number, LocalPrepared>();

/**
 * The self-check window: from the first request (module loading and start-up compilation stay
 * out), restarted when the main thread says the measured phase begins.
 */
let health: LoopHealthMonitor | null = null;

/**
 * The main thread's progress line shows streams gone quiet; only this thread sees their bytes.
 * Reported when the count or the whole seconds of the longest silence change.
 */
const SILENCE_REPORT_MS = 1000;
let reportedSilence = '0 0';
const silenceReports = setInterval(() => {
  const silent = pool.silentTransfers();
  const summary = `${silent.count} ${Math.floor(silent.longestSeconds)}`;
  if (summary === reportedSilence) return;
  reportedSilence = summary;
  post({ kind: 'silence', silent });
}, SILENCE_REPORT_MS).unref();

async function send(message: Extract<ToWorker, { kind: 'send' }>): Promise<void> {
  const request = prepared.get(message.id)!;
  if (!config.keepPrepared) prepared.delete(message.id);
  const outputs = await executor.execute(request, { queueTime: message.queueTime, dueAt: fromSharedSeconds(message.dueAt, offsetMs) });
  post({ kind: 'done', id: message.id, outputs: outputsToSharedClock(outputs, offsetMs) });
}

async function prewarm(message: Extract<ToWorker, { kind: 'prewarm' }>): Promise<void> {
  const { opened, error } = await pool.prewarm(message.url, message.count);
  post({ kind: 'prewarmed', opened, error: error === null ? null : error.message });
}

port.on('message', (message: ToWorker) => {
  switch (message.kind) {
    case 'prepare':
      prepared.set(message.id, executor.prepare(message.input));
      return;
    case 'prewarm':
      void prewarm(message);
      return;
    case 'settle-heap':
      settleHeap();
      post({ kind: 'heap-settled' });
      return;
    case 'send':
      health ??= startThreadHealthMonitor();
      void send(message);
      return;
    case 'measure':
      health?.stop();
      health = startThreadHealthMonitor({ realtime: config.realtime });
      return;
    case 'abort-all':
      pool.abortAll(message.message);
      return;
    case 'end-measure':
      post({ kind: 'health', sample: health?.stop() ?? null });
      health = null;
      return;
    case 'finish':
      clearInterval(silenceReports);
      health?.stop();
      void pool.close().then(() => port.close());
      return;
  }
});
post({ kind: 'ready' });
