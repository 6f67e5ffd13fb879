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
import { parseExtraBody } from '../bench/args/extra-body.js';
import type { BenchArgs } from '../bench/args/types.js';
import { resolvePort, resolveUrls, type BenchUrls } from '../bench/args/urls.js';
import { runHeaders } from '../bench/backends/index.js';
import { buildDataset } from '../bench/datasets/index.js';
import type { BenchmarkMetrics, ServebenchExtras } from '../bench/metrics/types.js';
import { runBenchmark } from '../bench/runner/benchmark.js';
import { discoverModel } from '../bench/runner/discovery.js';
import { InterruptWatch, signalExitCode, signalName } from '../bench/runner/interrupt.js';
import { summarizeRun } from '../bench/runner/report.js';
import { fetchServerInfo } from '../bench/transport/auxiliary.js';
import { HttpPool } from '../bench/transport/http-pool.js';
import type { RequestOutput } from '../bench/types.js';
import { splitCommandLine } from '../sim/flags/launch-flags.js';
import { startEmbeddedSim } from '../sim/server/sim-thread.js';
import type { Tokenizer } from '../tokenizer/types.js';
import { workloadTokenizer } from './bench-setup.js';

export interface LiveTarget {
  urls: BenchUrls;
  modelId: string;
  /** The base args with the model and port resolved. */
  args: BenchArgs;
  tokenizer: Tokenizer;
  pool: HttpPool;
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
export async function openLiveTarget(baseArgs: BenchArgs, simFlags: string | null): Promise<LiveTarget> {
  const args: BenchArgs = { ...baseArgs };
  const sim = simFlags === null ? null : await startEmbeddedSim(splitCommandLine(simFlags));
  const pool = new HttpPool({ streamIdleTimeout: args.extensions.streamIdleTimeout });
  const close = async (): Promise<void> => {
    await pool.close();
    await sim?.close();
  };
  try {
    if (sim !== null) {
      args.base_url = null;
      args.host = '127.0.0.1';
      args.port = sim.port;
    }
    args.port = resolvePort(args);
    const urls = resolveUrls(args);
    if (args.model === null) {
      const found = await discoverModel(pool, args.backend, urls.modelUrl, runHeaders(process.env, args.header).withAuth);
      if (!found.ok) throw new UserError(found.lines.join(' '));
      args.model = found.model;
    }
    const tokenizer = await workloadTokenizer(args);
    return { urls, modelId: args.served_model_name ?? args.model, args, tokenizer, pool, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs one benchmark with `args` (the target's args at one load) and computes its metrics. */
export async function runLive(target: LiveTarget, args: BenchArgs): Promise<LiveRun> {
  const rngs = createBenchRngs(args.seed);
  const dataset = await buildDataset(args, target.tokenizer, quiet, { rngs });
  const interrupts = new InterruptWatch();
  let run: Awaited<ReturnType<typeof runBenchmark>>;
  try {
    run = await runBenchmark({
      args,
      dataset,
      modelId: target.modelId,
      apiUrl: target.urls.apiUrl,
      baseUrl: target.urls.baseUrl,
      extraRequestBody: parseExtraBody(args.extra_request_body),
      pool: target.pool,
      rngs,
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
  const { metrics, extras } = await summarizeRun(run, args, target.tokenizer);
  const serverInfo = await fetchServerInfo(target.pool, target.urls.baseUrl, runHeaders(process.env, target.args.header).withAuth, pythonJsonLoads);
  return { outputs: run.outputs, durationS: run.duration, metrics, extras, serverInfo };
}
