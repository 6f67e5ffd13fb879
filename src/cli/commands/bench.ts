/**
 * `servebench bench`: a drop-in `python -m sglang.bench_serving`. Wiring only: the parsed and
 * resolved arguments (spec §1.3, the reference's stdout lines in order), the bench pipeline with
 * bench_serving's console and the report that prints and keeps the results, and the exit status.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError, UserError } from '../../core/errors.js';
import { TOOL_VERSION } from '../../core/version.js';
import { resolvedNamespace, type BenchArgs, ModelDiscoveryError, consoleReport, resolveRunConfig, runBench, runShard, signalExitCode, signalName, type ResultKeepers, checkOutputFile, defaultOutputFileName, formatNamespace, HelpRequested, parseBenchArgs, type SimTarget, resolveShardRole, type ShardRole, type ShardCoordination, parseCoordinatorAddress, shardedRunManifest, InterruptWatch } from '../../bench/index.js';
import { splitCommandLine } from '../../core/command-line.js';
import type { Command } from '../main.js';
import { fetchModels, simModels } from '../model-configs.js';
import { launchLocalShards } from '../shard-launcher.js';

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

/** The launcher's own flags: a manifest's pods get the run's flags without them, and a rank of their own. */
const LAUNCHER_FLAGS = ['--shards', '--shard-rank', '--coordinator', '--k8s-manifest', '--image', '--k8s-image', '--k8s-name'];

/** The sim's flags: a shard drives the sim its coordinator started, at the coordinator's time scale. */
const SIM_FLAGS = ['--sim', '--sim-time-scale'];

/** `argv` without `flags`, each taking a value (`--flag value` and `--flag=value`). */
function withoutFlags(argv: readonly string[], flags: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (flags.includes(arg)) i++;
    else if (!flags.some((flag) => arg.startsWith(`${flag}=`))) kept.push(arg);
  }
  return kept;
}

/** `--run-file FILE` (a manifest's pods): the bench flags stored in FILE's `argv`. */
function expandRunFile(argv: string[]): string[] {
  if (argv[0] !== '--run-file') return argv;
  if (argv.length !== 2) throw new UsageError('--run-file FILE takes no other flags: the run is all in FILE');
  let run: unknown;
  try {
    run = JSON.parse(readFileSync(argv[1]!, 'utf8'));
  } catch (error) {
    throw new UserError(`cannot read the run file ${argv[1]}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const stored = (run as { argv?: unknown } | null)?.argv;
  if (!Array.isArray(stored) || !stored.every((arg) => typeof arg === 'string')) throw new UserError(`the run file ${argv[1]} has no argv list of strings: write it with bench --k8s-manifest`);
  return stored;
}

/** `--k8s-manifest FILE`: the manifest of the sharded run, written; nothing runs. */
function writeManifest(args: BenchArgs, argv: readonly string[]): number {
  const { shards, k8sImage, k8sName, k8sManifest } = args.extensions;
  if (shards === null) throw new UsageError('--k8s-manifest needs --shards K: the number of shard pods beside the coordinator');
  if (k8sImage === null) throw new UsageError('--k8s-manifest needs --image IMAGE: an image with servebench installed');
  const benchArgv = withoutFlags(argv, LAUNCHER_FLAGS);
  const manifest = shardedRunManifest({ name: k8sName, image: k8sImage, shards, benchArgv, hasOutputFile: args.output_file !== null, hasLinger: benchArgv.some((arg) => arg === '--linger' || arg.startsWith('--linger=')), version: TOOL_VERSION });
  writeFileSync(k8sManifest!, manifest);
  notice(`servebench bench: wrote ${k8sManifest}: a Job of ${shards + 1} pods (a coordinator and ${shards} shards), its Service and its ConfigMap, all named ${k8sName}; run it with: kubectl apply -f ${k8sManifest}`);
  return 0;
}

/** What a sharded run cannot do yet, refused before anything starts. */
function checkShardedRun(args: BenchArgs, role: ShardRole): void {
  if (args.extensions.numRuns > 1) throw new UsageError('--num-runs with --shards is not supported: run the sharded bench once per repeat');
  if (args.profile) throw new UsageError('--profile with --shards is not supported: profile a one-process run');
  if (args.extensions.sim !== null && role.kind !== 'local') throw new UsageError('--sim with a shard rank: a sim started by one machine serves only its own loopback; run bench --sim --shards K on one host, or start the sim as a server');
}

/** The coordinator's part: where it listens and, on one host, the shard processes it starts. */
function coordination(args: BenchArgs, role: Exclude<ShardRole, { kind: 'shard' }>, argv: readonly string[]): ShardCoordination {
  const shards = args.extensions.shards!;
  const timeoutS = args.extensions.shardTimeout;
  if (role.kind === 'local') {
    return { shards, timeoutS, listen: { host: '127.0.0.1', port: 0 }, launch: (port) => launchLocalShards(withoutFlags(argv, [...LAUNCHER_FLAGS, ...SIM_FLAGS]).concat(['--shards', String(shards)]), shards, port, notice) };
  }
  return { shards, timeoutS, listen: { host: '0.0.0.0', port: parseCoordinatorAddress(role.address).port }, launch: null };
}

/** A shard of a sharded run: it sends its share and reports to the coordinator; the coordinator prints the run. */
async function runAsShard(args: BenchArgs, role: Extract<ShardRole, { kind: 'shard' }>): Promise<number> {
  const config = resolveRunConfig(args);
  const shards = args.extensions.shards!;
  await runShard(config, { print: () => {}, notice, env: process.env }, { rank: role.rank, shards, coordinator: role.address, timeoutS: args.extensions.shardTimeout });
  notice(`servebench shard ${role.rank} of ${shards}: its requests are sent and their outputs are with the coordinator`);
  return 0;
}

async function run(rawArgv: string[]): Promise<number> {
  let args: BenchArgs;
  const argv = expandRunFile(rawArgv);
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof HelpRequested) {
      write(error.text);
      return error.exitCode;
    }
    throw error;
  }
  if (args.extensions.k8sManifest !== null) return writeManifest(args, argv);
  const role = resolveShardRole(args.extensions, process.env);
  if (role !== null) checkShardedRun(args, role);
  if (role?.kind === 'shard') return runAsShard(args, role);
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
      shards: role === null ? null : coordination(args, role, argv),
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
  if (args.extensions.linger > 0) await linger(args.extensions.linger, outputFile);
  const failed = results.filter((result) => result.metrics.completed === 0);
  if (failed.length > 0) {
    const where = config.output.details ? `each request's error is in ${outputFile}` : 'add --output-details to record each error';
    const which = results.length === 1 ? '' : ` in ${failed.length} of ${results.length} runs (run ${failed.map((result) => result.repeat!.run).join(', ')})`;
    throw new UserError(`all ${failed[0]!.outputs.length} requests failed${which} (causes above; ${where}); check the server and the benchmark arguments`);
  }
  return 0;
}

/** `--linger`: the coordinator stays (a pod for kubectl cp) until the time is up or a stop signal comes. */
async function linger(seconds: number, outputFile: string): Promise<void> {
  notice(`servebench bench: the results are in ${outputFile}; waiting ${seconds} s (--linger) before exiting, or until a stop signal`);
  const interrupts = new InterruptWatch();
  try {
    await interrupts.pause(seconds);
  } finally {
    interrupts.dispose();
  }
}

export const command: Command = {
  summary: 'benchmark a serving endpoint (drop-in for python -m sglang.bench_serving)',
  run,
};
