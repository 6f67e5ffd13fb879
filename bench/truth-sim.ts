/**
 * The ground truth of the client benchmarks: a truth-mode sim (`servebench sim --truth-ttft-ms T
 * --truth-itl-ms I`) in its own process, as `servebench sim` runs it, whose `GET /sim/truth` says
 * per request when the server received it and when it wrote each chunk, on the shared
 * `process.hrtime` clock. Shared by bench/client-accuracy.ts and bench/client-burst.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MODEL = 'Qwen/Qwen3-8B';

/** One request as the sim recorded it (ms, shared clock). */
export interface TruthRecord {
  arrivalMs: number;
  scheduledMs: number[];
  /** When the sim began writing each chunk. */
  actualMs: number[];
  /** When the write carrying each chunk had returned. */
  writtenMs: number[];
}

export interface TruthSimOptions {
  ttftMs: number;
  itlMs: number;
  /** Every request on one step clock (`--truth-shared-steps`), as a continuous-batching engine writes. */
  sharedSteps: boolean;
  /** The sim's serving loop under SCHED_FIFO where permitted (`--sim-realtime`). */
  realtime: boolean;
  /** Serve `/metrics` (`--enable-metrics`), for runs that read it as bench does. */
  metrics?: boolean;
}

export interface TruthSim {
  url: string;
  child: ChildProcess;
}

async function startTruthSim(options: TruthSimOptions): Promise<TruthSim> {
  const child = fork(
    fileURLToPath(new URL('./truth-sim-child.ts', import.meta.url)),
    [
      '--model-path', MODEL, '--truth-ttft-ms', String(options.ttftMs), '--truth-itl-ms', String(options.itlMs),
      ...(options.sharedSteps ? ['--truth-shared-steps'] : []),
      ...(options.realtime ? ['--sim-realtime'] : []),
      ...(options.metrics === true ? ['--enable-metrics'] : []),
    ],
    { execArgv: ['--import', 'tsx'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', (code) => reject(new Error(`sim exited with code ${code}`)));
  });
  return { url, child };
}

/** Runs `measure` against a sim started with `options`, and stops the sim however it ends. */
export async function withTruthSim<T>(options: TruthSimOptions, measure: (sim: TruthSim) => Promise<T>): Promise<T> {
  const sim = await startTruthSim(options);
  try {
    return await measure(sim);
  } finally {
    sim.child.kill('SIGTERM');
  }
}

/** Every request the sim recorded, by its id (`rid`). */
export async function fetchTruth(url: string): Promise<Record<string, TruthRecord>> {
  return ((await (await fetch(`${url}/sim/truth`)).json()) as { requests: Record<string, TruthRecord> }).requests;
}
