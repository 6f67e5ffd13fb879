/**
 * Runs the simulated server on its own worker thread: `servebench sim`, and `bench --sim` /
 * `sweep --sim` inside the benchmarking process. Sharing one event loop would let the client's
 * parsing delay the sim's writes and the sim's bursts delay the client's timestamps; a worker thread
 * has its own loop (and can use the other core) while remaining one command and one process.
 *
 * The thread's young generation is kept small on purpose. A request's state lives as long as its
 * stream, so every scavenge copies the state of the requests that arrived since the previous one:
 * with V8's default 16 MB semi-spaces that is ~1 MB at 2,000 streams, a 3–4 ms pause five times a
 * second, and every chunk due during a pause is written late. With 1 MB semi-spaces the same copying
 * is spread over pauses of ~0.5 ms (docs/PERFORMANCE.md, "Sim lateness").
 */
import { setFlagsFromString } from 'node:v8';
import { UserError, describeError } from '../../core/errors.js';
import { startModuleWorker } from '../../core/module-worker.js';
import type { LaunchConfig } from '../../deployment/index.js';
import { NO_LATENESS, type LatenessSummary } from '../truth/lateness-verdict.js';
import type { SimServerOptions } from './sim-server.js';

/** Young generation of the sim's thread: V8 sizes it as three semi-spaces, so 1 MB semi-spaces. */
const SIM_YOUNG_GENERATION_MB = 3;

export interface SimThreadHandle {
  url: string;
  port: number;
  /** Port of a PD prefill instance's bootstrap server; null for any other instance. */
  bootstrapPort: number | null;
  launch: LaunchConfig;
  /** Linux thread id of the sim's event-loop thread, null off Linux. */
  loopThreadId: number | null;
  /** Settles, with a one-line reason, only if the thread ends without `close()` (a crash, out of memory). */
  stopped: Promise<string>;
  /** How late the sim wrote its chunks compared with its model's schedule, so far (engine time). */
  writeLateness(): Promise<LatenessSummary>;
  /** Runs the engine `timeScale` wall seconds per engine second from now on (SimServerHandle.setTimeScale). */
  setTimeScale(timeScale: number): Promise<void>;
  close(): Promise<void>;
}

/** Messages the worker posts back. */
export type SimThreadMessage =
  | { kind: 'listening'; url: string; port: number; bootstrapPort: number | null; launch: LaunchConfig; loopThreadId: number | null }
  | { kind: 'failed'; message: string; exitCode: number }
  | { kind: 'lateness'; summary: LatenessSummary }
  | { kind: 'time-scale-set' }
  | { kind: 'closed' };

/** What the worker receives: the launch flags and the server options. */
export interface SimThreadData {
  argv: string[];
  options: SimServerOptions;
}

/**
 * Starts `startSimServer(argv, options)` on a worker thread; resolves once it listens. A start-up
 * failure (bad flags, port taken) rejects with the server's own one-line error and exit code.
 */
export function startSimThread(argv: readonly string[], options: SimServerOptions = {}): Promise<SimThreadHandle> {
  const workerData: SimThreadData = { argv: [...argv], options };
  const worker = startModuleWorker(import.meta.url, 'sim-worker', { workerData, resourceLimits: { maxYoungGenerationSizeMb: SIM_YOUNG_GENERATION_MB } });
  return new Promise((resolve, reject) => {
    // A thread that throws (or runs out of memory) reports it here, then exits.
    let crash: string | null = null;
    worker.on('error', (error) => (crash = describeError(error)));
    const onExit = (code: number): void =>
      reject(new UserError(`the simulated server thread stopped before listening: ${crash ?? `exit ${code}`}`));
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
      let closing = false;
      const stopped = new Promise<string>((stop) =>
        worker.once('exit', (code) => {
          exited = true;
          if (!closing) stop(`the simulated server thread stopped unexpectedly: ${crash ?? `exit ${code}`}`);
        }),
      );
      resolve({
        url: message.url,
        port: message.port,
        bootstrapPort: message.bootstrapPort,
        launch: message.launch,
        loopThreadId: message.loopThreadId,
        stopped,
        writeLateness: () =>
          new Promise<LatenessSummary>((done) => {
            if (exited) return done(NO_LATENESS);
            const onReply = (reply: SimThreadMessage): void => {
              if (reply.kind !== 'lateness') return;
              worker.off('message', onReply);
              done(reply.summary);
            };
            worker.on('message', onReply);
            worker.postMessage('lateness');
          }),
        setTimeScale: (timeScale) =>
          new Promise<void>((done) => {
            if (exited) return done();
            const onReply = (reply: SimThreadMessage): void => {
              if (reply.kind !== 'time-scale-set') return;
              worker.off('message', onReply);
              done();
            };
            worker.on('message', onReply);
            worker.postMessage({ kind: 'time-scale', timeScale });
          }),
        close: () =>
          new Promise<void>((done) => {
            if (exited) return done();
            closing = true;
            worker.once('exit', () => done());
            worker.postMessage('close');
          }),
      });
    });
  });
}

/**
 * Starts the sim of a process that only hosts it (`servebench sim`, and the bench scripts that fork
 * one the same way), with scavenges on the sim's thread alone. V8's parallel scavenge hands work to
 * helper threads; on a small machine busy with the load generator a helper waits for a core while
 * the sim's loop waits for the helper. The flag is process-wide, so a benchmarking process that
 * embeds the sim (`startEmbeddedSim`) keeps V8's default for its client.
 */
export function startDedicatedSim(argv: readonly string[], options: SimServerOptions = {}): Promise<SimThreadHandle> {
  setFlagsFromString('--no-parallel-scavenge');
  return startSimThread(argv, options);
}

/**
 * Starts the sim of a `--sim "<flags>"` option inside a benchmarking process: loopback, a free port,
 * silent, the lateness of its writes kept for the run's verdict, told the run's `dataset` where there
 * is one (speculative acceptance depends on it). Errors name the option.
 *
 * Its serving thread asks for SCHED_FIFO (where permitted) for the length of the run: the client and
 * the sim share the machine, and a sim thread woken for a due chunk that waits for a core behind the
 * client writes late, which the client then measures as the server's delay (README run on 2 cores:
 * median ITL 0.00 ms at normal priority, 0.8–1.4 ms with it; predict says 2.58 ms).
 */
export async function startEmbeddedSim(argv: readonly string[], dataset?: string): Promise<SimThreadHandle> {
  try {
    return await startSimThread(argv, { host: '127.0.0.1', port: 0, quiet: true, recordWrites: 'summary', realtime: true, dataset });
  } catch (error) {
    if (error instanceof UserError) throw new UserError(`--sim: ${error.message}`, error.exitCode);
    throw error;
  }
}
