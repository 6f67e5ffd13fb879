/**
 * Real-time sweep points: `servebench bench`'s runner called in-process, once per load, against
 * a real server (the bench flags' host/port/base URL) or an in-process `servebench sim` started
 * once for the whole sweep. Console lines of the individual runs are not printed; the sweep
 * prints one line per point instead.
 */
import { UserError } from '../core/errors.js';
import { pythonJsonLoads } from '../core/pyjson.js';
import type { PyValue } from '../core/pyrepr.js';
import { createBenchRngs } from '../core/rng.js';
import { runHeaders, type RunHeaders } from '../bench/backends/index.js';
import { buildDataset } from '../bench/datasets/index.js';
import type { BenchmarkMetrics, ServebenchExtras } from '../bench/metrics/types.js';
import type { BenchRunConfig } from '../bench/run-config.js';
import { runBenchmark } from '../bench/runner/benchmark.js';
import { InterruptWatch, signalExitCode, signalName } from '../bench/runner/interrupt.js';
import { summarizeRun } from '../bench/runner/report.js';
import { fetchServerInfo } from '../bench/transport/auxiliary.js';
import { HttpPool } from '../bench/transport/http-pool.js';
import type { RequestOutput } from '../bench/types.js';
import { splitCommandLine } from '../sim/flags/launch-flags.js';
import { startEmbeddedSim } from '../sim/server/sim-thread.js';
import { loadTokenizer } from '../tokenizer/index.js';
import type { Tokenizer } from '../tokenizer/types.js';
import { resolveTarget, simAddress, type BenchTarget } from '../bench/target.js';

export interface LiveTarget {
  /** The server's address and model, resolved. */
  target: BenchTarget;
  tokenizer: Tokenizer;
  pool: HttpPool;
  headers: RunHeaders;
  close(): Promise<void>;
}

export interface LiveRun {
  outputs: RequestOutput[];
  durationS: number;
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  serverInfo: PyValue;
}

const quiet = (): void => {};

/**
 * Connects to the target: starts the sim of `simFlags` on a loopback port when given, resolves
 * URLs, discovers the model when the bench flags name none, and loads the tokenizer.
 */
export async function openLiveTarget(config: BenchRunConfig, simFlags: string | null): Promise<LiveTarget> {
  const sim = simFlags === null ? null : await startEmbeddedSim(splitCommandLine(simFlags));
  const pool = new HttpPool({ streamIdleTimeout: config.streamIdleTimeout });
  const close = async (): Promise<void> => {
    await pool.close();
    await sim?.close();
  };
  try {
    const headers = runHeaders(process.env, config.request.headers);
    const target = await resolveTarget(config, sim === null ? config.server : simAddress(sim.port), pool, headers.withAuth);
    const tokenizer = await loadTokenizer({ tokenizer: config.tokenizer, model: target.model });
    return { target, tokenizer, pool, headers, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs one benchmark of `config` (the base config at one load) and computes its metrics. */
export async function runLive(live: LiveTarget, config: BenchRunConfig): Promise<LiveRun> {
  const rngs = createBenchRngs(config.seed);
  const dataset = await buildDataset(config, live.tokenizer, quiet, { rngs });
  const interrupts = new InterruptWatch();
  let run: Awaited<ReturnType<typeof runBenchmark>>;
  try {
    run = await runBenchmark({
      config,
      target: live.target,
      dataset,
      pool: live.pool,
      rngs,
      headers: live.headers,
      env: process.env,
      print: quiet,
      notice: (line) => process.stderr.write(`${line}\n`),
      createProgress: () => null,
      interrupts,
    });
  } finally {
    interrupts.dispose();
  }
  const signal = interrupts.signal;
  if (signal !== null) {
    throw new UserError(`the sweep was stopped by ${signalName(signal)}; points finished so far are in the catalog`, signalExitCode(signal));
  }
  const { metrics, extras } = await summarizeRun(run, config, live.tokenizer);
  const serverInfo = await fetchServerInfo(live.pool, live.target.urls.baseUrl, live.headers.withAuth, pythonJsonLoads);
  return { outputs: run.outputs, durationS: run.duration, metrics, extras, serverInfo };
}
