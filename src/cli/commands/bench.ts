/**
 * `servebench bench`: a drop-in `python -m sglang.bench_serving`. Orchestration only — the
 * start-up sequence of spec §1.3 with the reference's stdout lines in order, then the run, the
 * result block, servebench's extras and the JSONL record.
 */
import { availableParallelism } from 'node:os';
import { UserError, describeError } from '../../core/errors.js';
import { pythonJsonLoads } from '../../core/pyjson.js';
import { createBenchRngs } from '../../core/rng.js';
import { formatNamespace } from '../../bench/args/namespace.js';
import { HelpRequested, parseBenchArgs } from '../../bench/args/parse.js';
import { resolvedNamespace } from '../../bench/args/resolved-namespace.js';
import type { BenchArgs } from '../../bench/args/types.js';
import { runHeaders } from '../../bench/backends/index.js';
import { buildDataset } from '../../bench/datasets/index.js';
import { ALL_REQUESTS_FAILED_WARNING } from '../../bench/metrics/calculate.js';
import { formatResultBlock } from '../../bench/output/block.js';
import { formatExtendedBlock } from '../../bench/output/extras-block.js';
import { appendJsonl, checkOutputFile, defaultOutputFileName } from '../../bench/output/jsonl-file.js';
import { createProgressBar, stallTimeoutNotice } from '../../bench/output/progress.js';
import { buildResultRecord, type JsonRecord } from '../../bench/output/record.js';
import { resolveRunConfig, type BenchRunConfig } from '../../bench/run-config.js';
import { resolveTarget, simAddress } from '../../bench/target.js';
import type { RequestOutput } from '../../bench/types.js';
import { runBenchmark } from '../../bench/runner/benchmark.js';
import { ModelDiscoveryError } from '../../bench/runner/discovery.js';
import { InterruptWatch, signalExitCode, signalName } from '../../bench/runner/interrupt.js';
import { summarizeRun } from '../../bench/runner/report.js';
import { judgeClient } from '../../bench/selfcheck/verdict.js';
import { resolveWorkerCount } from '../../bench/workers/plan.js';
import { fetchServerInfo } from '../../bench/transport/auxiliary.js';
import { HttpPool } from '../../bench/transport/http-pool.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { splitCommandLine } from '../../sim/flags/launch-flags.js';
import { TOOL_VERSION } from '../../core/version.js';
import type { Tokenizer } from '../../tokenizer/types.js';
import type { Command } from '../main.js';
import type { SimThreadHandle } from '../../sim/server/sim-thread.js';

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const notice = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Step 10: the model's own tokenizer decides the chat-template notice; a load failure is only reported. */
async function checkChatTemplate(model: string): Promise<Tokenizer | null> {
  let tokenizer: Tokenizer | null = null;
  try {
    tokenizer = await loadTokenizer({ model });
  } catch (error) {
    print(`Fail to load tokenizer config with error=${(error as Error).message}`);
  }
  if (tokenizer === null || !tokenizer.hasChatTemplate) {
    print('');
    print('WARNING It is recommended to use the `Chat` or `Instruct` model for benchmarking.');
    print('Because when the tokenizer counts the output tokens, if there is gibberish, it might count incorrectly.');
    print('');
  }
  return tokenizer;
}

/** Starts the simulated server of `--sim` on its own thread. */
async function startSim(flags: string | null): Promise<SimThreadHandle | null> {
  if (flags === null) return null;
  const { startEmbeddedSim } = await import('../../sim/server/sim-thread.js');
  return startEmbeddedSim(splitCommandLine(flags));
}

/** `--plot-throughput`: the two per-second plots as PNG files next to the JSONL file. */
async function plotThroughput(outputFile: string, outputs: readonly RequestOutput[]): Promise<void> {
  const { writeThroughputPlots } = await import('../../plots/export.js');
  writeThroughputPlots(outputFile, outputs, print);
}

/**
 * Keeps the run in the catalog. A catalog that cannot be written (locked, corrupt) costs a warning
 * line, not the measurement: the JSONL line, when it could be written (`outputFile`), has it.
 */
async function recordInCatalog(
  args: BenchArgs,
  config: BenchRunConfig,
  record: JsonRecord,
  outputFile: string | null,
  outputs: readonly RequestOutput[],
  startedAt: Date,
): Promise<void> {
  const { recordBenchRun } = await import('../../catalog/record-bench.js');
  try {
    const { id, path } = recordBenchRun({
      record,
      args: { ...args },
      outputs,
      startedAt,
      toolVersion: `servebench ${TOOL_VERSION}`,
      outputFile,
      dbPath: config.catalog.db,
      simFlags: config.sim,
    });
    notice(`Run ${id} recorded in ${path}`);
  } catch (error) {
    const kept = outputFile === null ? 'nor in a JSONL file' : `its record is in ${outputFile}`;
    notice(`warning: the run was not recorded in the catalog (${describeError(error)}); ${kept}`);
  }
}

/**
 * Keeps the results: the JSONL line, the plots, the catalog run. The catalog run is recorded even
 * when the line could not be appended (the disk filled up, the folder went away mid-run); the
 * append's error is raised after it.
 */
async function saveResults(
  args: BenchArgs,
  config: BenchRunConfig,
  record: JsonRecord,
  outputFile: string,
  outputs: readonly RequestOutput[],
  startedAt: Date,
): Promise<void> {
  let appendError: unknown = null;
  try {
    appendJsonl(outputFile, record);
  } catch (error) {
    appendError = error;
  }
  const appended = appendError === null;
  if (appended && config.output.plotThroughput && outputs.some((output) => output.success)) await plotThroughput(outputFile, outputs);
  if (config.catalog.record) await recordInCatalog(args, config, record, appended ? outputFile : null, outputs, startedAt);
  if (!appended) throw appendError;
}

async function run(argv: string[]): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(error.text);
      return error.exitCode;
    }
    throw error;
  }
  print(`benchmark_args=${formatNamespace(args)}`);
  const config = resolveRunConfig(args);
  const rngs = createBenchRngs(config.seed);
  // Results that could not be kept are not worth measuring: the file is tried before anything starts.
  const outputFile = config.output.file ?? defaultOutputFileName(config, new Date());
  checkOutputFile(outputFile);
  const sim = await startSim(config.sim);
  const pool = new HttpPool({ streamIdleTimeout: config.streamIdleTimeout });
  try {
    const headers = runHeaders(process.env, config.request.headers);
    let target;
    try {
      target = await resolveTarget(config, sim === null ? config.server : simAddress(sim.port), pool, headers.withAuth);
    } catch (error) {
      if (!(error instanceof ModelDiscoveryError)) throw error;
      error.lines.forEach(print);
      return 1;
    }
    const modelTokenizer = await checkChatTemplate(target.model);
    print(formatNamespace(resolvedNamespace(args, config, target)));
    print('');

    const tokenizer =
      config.tokenizer === null && modelTokenizer !== null ? modelTokenizer : await loadTokenizer({ tokenizer: config.tokenizer, model: target.model });
    const dataset = await buildDataset(config, tokenizer, print, { rngs });
    const { workers, note: workersNote } = resolveWorkerCount(config.workers, availableParallelism(), dataset.rows.length);
    if (workersNote !== null) notice(workersNote);

    // On stderr, as the progress line: stdout stays bench_serving's.
    notice(stallTimeoutNotice(config.streamIdleTimeout));
    const startedAt = new Date();
    // From the first request until the results are saved, a stop signal ends sending and the
    // results of what completed are still printed and kept; before that there is nothing to keep.
    const interrupts = new InterruptWatch();
    try {
      const runResult = await runBenchmark({
        config,
        target,
        dataset,
        pool,
        rngs,
        headers,
        env: process.env,
        print,
        notice,
        createProgress: (total, silentTransfers) => createProgressBar(total, config.output.disableProgress, { silentTransfers }),
        interrupts,
        workers,
      });

      const { metrics, extras } = await summarizeRun(runResult, config, tokenizer);
      if (metrics.completed === 0) notice(`UserWarning: ${ALL_REQUESTS_FAILED_WARNING}`);
      process.stdout.write(formatResultBlock(metrics, config));
      process.stdout.write(formatExtendedBlock(extras));
      // The loops that stamped the events judge the run.
      print(judgeClient(runResult.loopHealth).line);
      if (sim !== null) {
        const { judgeSimWrites } = await import('../../sim/truth/lateness-verdict.js');
        print(judgeSimWrites(await sim.writeLateness()).line);
      }

      const serverInfo = await fetchServerInfo(pool, target.urls.baseUrl, headers.withAuth, pythonJsonLoads);
      const resolvedArgs = resolvedNamespace(args, config, target);
      const record = buildResultRecord({ args: resolvedArgs, metrics, serverInfo, outputs: runResult.outputs, extras });
      await saveResults(resolvedArgs, config, record, outputFile, runResult.outputs, startedAt);

      const signal = interrupts.signal;
      if (signal !== null) {
        notice(`servebench bench: stopped by ${signalName(signal)}; the results of the ${metrics.completed} completed requests are saved (exit status ${signalExitCode(signal)})`);
        return signalExitCode(signal);
      }
      if (metrics.completed === 0) {
        const where = config.output.details ? `each request's error is in ${outputFile}` : 'add --output-details to record each error';
        throw new UserError(`all ${runResult.outputs.length} requests failed (causes above; ${where}); check the server and the benchmark arguments`);
      }
      return 0;
    } finally {
      interrupts.dispose();
    }
  } finally {
    await pool.close();
    await sim?.close();
  }
}

export const command: Command = {
  summary: 'benchmark a serving endpoint (drop-in for python -m sglang.bench_serving)',
  run,
};
