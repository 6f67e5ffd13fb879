/**
 * `servebench bench`: a drop-in `python -m sglang.bench_serving`. Wiring only: the parsed and
 * resolved arguments (spec §1.3, the reference's stdout lines in order), the bench pipeline with
 * bench_serving's console and the report that prints and keeps the results, and the exit status.
 */
import { UserError } from '../../core/errors.js';
import { resolvedNamespace, type BenchArgs, ModelDiscoveryError, consoleReport, resolveRunConfig, runBench, signalExitCode, signalName, type ResultKeepers, checkOutputFile, defaultOutputFileName, formatNamespace, HelpRequested, parseBenchArgs, type SimTarget } from '../../bench/index.js';
import { splitCommandLine } from '../../core/command-line.js';
import type { Command } from '../main.js';
import { fetchModels, simModels } from '../model-configs.js';

const write = (text: string): void => {
  process.stdout.write(text);
};
const print = (line: string): void => write(`${line}\n`);
const notice = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const keepers: ResultKeepers = {
  plotThroughput: async (outputFile, outputs) => {
    (await import('../../plots/index.js')).writeThroughputPlots(outputFile, outputs, print);
  },
  recordRun: async (recording) => (await import('../../catalog/index.js')).recordBenchRun(recording),
};

/** The sim of `--sim "<flags>"`: a PD deployment behind its router when the flags name instances, else one sim. */
async function simTarget(flags: string): Promise<SimTarget> {
  // The engine loads only for a sim run.
  const { pdSimTarget } = await import('../pd-rehearsal.js');
  return pdSimTarget(flags, (line) => notice(`servebench router: ${line}`)) ?? (await import('../../predict/index.js')).embeddedSimTarget(flags);
}

async function run(argv: string[]): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof HelpRequested) {
      write(error.text);
      return error.exitCode;
    }
    throw error;
  }
  print(`benchmark_args=${formatNamespace(args)}`);
  const config = resolveRunConfig(args);
  // Results that could not be kept are not worth measuring: the file is tried before anything starts.
  const outputFile = config.output.file ?? defaultOutputFileName(config, new Date());
  checkOutputFile(outputFile);
  // The sim's thread reads the HF cache only: a hub id's config.json is fetched before it starts.
  if (config.sim !== null) {
    const { simArgvs } = await import('../pd-rehearsal.js');
    await fetchModels('bench', simArgvs(splitCommandLine(config.sim), '--sim').flatMap(simModels));
  }
  let outcome: Awaited<ReturnType<typeof runBench>>;
  try {
    outcome = await runBench(config, { print, notice, env: process.env }, {
      sim: config.sim === null ? null : await simTarget(config.sim),
      console: {
        announce: (target) => {
          print(formatNamespace(resolvedNamespace(config, target)));
          print('');
        },
      },
      workerThreads: true,
      onStop: 'finish',
      report: consoleReport({ outputFile, write, notice, keepers }),
    });
  } catch (error) {
    if (!(error instanceof ModelDiscoveryError)) throw error;
    error.lines.forEach(print);
    return 1;
  }
  const { results, signal } = outcome;
  if (signal !== null) {
    const completed = results.reduce((sum, result) => sum + result.metrics.completed, 0);
    const runs = results.length === 1 ? '' : ` of ${results.length} runs`;
    notice(`servebench bench: stopped by ${signalName(signal)}; the results of the ${completed} completed requests${runs} are saved (exit status ${signalExitCode(signal)})`);
    return signalExitCode(signal);
  }
  const failed = results.filter((result) => result.metrics.completed === 0);
  if (failed.length > 0) {
    const where = config.output.details ? `each request's error is in ${outputFile}` : 'add --output-details to record each error';
    const which = results.length === 1 ? '' : ` in ${failed.length} of ${results.length} runs (run ${failed.map((result) => result.repeat!.run).join(', ')})`;
    throw new UserError(`all ${failed[0]!.outputs.length} requests failed${which} (causes above; ${where}); check the server and the benchmark arguments`);
  }
  return 0;
}

export const command: Command = {
  summary: 'benchmark a serving endpoint (drop-in for python -m sglang.bench_serving)',
  run,
};
