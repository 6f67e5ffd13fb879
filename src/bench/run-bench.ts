/**
 * The bench pipeline, the one way servebench measures a server: start the sim to benchmark (if
 * any), resolve the target (port, URLs, model), load the tokenizer; then for each run build the
 * dataset, send it (`--num-runs` times: the same requests, prepared once), summarize each run and
 * fetch the server's info. `servebench bench` runs it once with bench_serving's console and a
 * report that prints and keeps the results; a sweep opens it once and measures every load quietly.
 * Failures are thrown as typed errors; the commands decide what is printed and the exit status.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { UserError } from '../core/errors.js';
import { pythonJsonLoads } from '../core/pyjson.js';
import type { PyValue } from '../core/pyrepr.js';
import { createBenchRngs, type BenchRngs } from '../core/rng.js';
import { loadTokenizer, type Tokenizer } from '../tokenizer/index.js';
import { runHeaders, type RunHeaders } from './backends/index.js';
import { checkChatTemplate } from './chat-template-check.js';
import { buildDataset } from './datasets/index.js';
import type { BenchmarkMetrics, ServebenchExtras } from './metrics/types.js';
import { createProgressBar, stallTimeoutNotice } from './output/progress.js';
import type { BenchRunConfig } from './run-config.js';
import { prepareBenchmark, type BenchmarkPlan, type PreparedBenchmark } from './runner/benchmark.js';
import type { RepeatMembership } from './metrics/repeated-runs.js';
import { InterruptWatch, signalExitCode, signalName, type StopSignal } from './runner/interrupt.js';
import { summarizeRun } from './runner/report.js';
import { judgeClient, requestBoundsOf, type ClientVerdict, type LoopHealthSample } from './selfcheck/verdict.js';
import { resolveTarget, simAddress, type BenchTarget } from './target.js';
import { fetchRouterWorkersInfo, fetchServerInfo, type RouterWorkersInfo } from './transport/auxiliary.js';
import { HttpPool } from './transport/http-pool.js';
import { autoTimeScale } from './sim-time-scale.js';
import type { SimTarget, StartedSim } from './sim-target.js';
import type { Dataset, RequestOutput } from './types.js';
import { resolveWorkerCount } from './workers/plan.js';
import type { ServerSide } from './server-metrics/server-side.js';
import type { ServerAddress } from './args/urls.js';
import { coordinateShards, type CoordinatorPlan } from './shards/coordinator.js';
import { ShardLink, type ShardWelcome } from './shards/shard-link.js';
import { parseCoordinatorAddress } from './shards/channel.js';
import { injectedSkewSeconds } from './shards/clock.js';
import type { ShardSummary } from './shards/summary.js';

export interface BenchIo {
  /** bench_serving's console lines (stdout), one per call. */
  print(line: string): void;
  /** Operator notices (stderr), one per call. */
  notice(line: string): void;
  /** Where the auth keys, `SGLANG_IS_IN_CI` and the profiler's directory come from. */
  env: NodeJS.ProcessEnv;
}

export interface OpenOptions {
  /** The sim to start and benchmark (`--sim`); null benchmarks the config's server. */
  sim: SimTarget | null;
  /**
   * bench_serving's console (`servebench bench`): the chat-template notice, then `announce` (the
   * resolved Namespace) before the tokenizer loads, and in each run the stall-timeout notice and
   * the progress bar. Null opens and runs quietly, as a sweep's points do.
   */
  console: { announce(target: BenchTarget): void } | null;
  /** Spread each run's load over `--workers` threads; false sends from this thread (a sweep's points). */
  workerThreads: boolean;
  /** Coordinate a sharded run (`--shards K`): the shards send, this process merges; null sends from here. */
  shards?: ShardCoordination | null;
}

/** What a coordinating process needs beyond one process's run (shards/coordinator.ts). */
export type ShardCoordination = Pick<CoordinatorPlan, 'shards' | 'listen' | 'timeoutS' | 'launch'>;

/** A run's measurement, before the server's info is fetched. */
export interface MeasuredRun {
  config: BenchRunConfig;
  target: BenchTarget;
  startedAt: Date;
  /** One output per sent request in dataset order. */
  outputs: RequestOutput[];
  durationS: number;
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  /** The server's side of the run (its /metrics over the window, the responses' own figures); null under --no-server-metrics. */
  server: ServerSide | null;
  /** Self-check samples of the loops that sent the requests. */
  loopHealth: LoopHealthSample[];
  /** The client's verdict on its own timing error: those loops and every request's own bound. */
  selfCheck: ClientVerdict;
  /** Wall seconds per engine second of the started sim during the run (1: real time, or no sim); every time above is in engine time. */
  simTimeScale: number;
  /** With `--num-runs` N ≥ 2: which run of the repeated measurement this is; null for a single run. */
  repeat: RepeatMembership | null;
  /** A sharded run's shards (`--shards K`); null for one process's run. */
  shards: ShardSummary[] | null;
}

export interface BenchResult extends MeasuredRun {
  /** The `/get_server_info` body (floats kept), or null. */
  serverInfo: PyValue;
  /** Behind a router: its workers' own bodies by role, or null (see fetchRouterWorkersInfo). */
  routerWorkers: RouterWorkersInfo<PyValue> | null;
}

/** A caller that shows and keeps a run's results as it goes (`servebench bench`); the hooks run while stop signals are caught. */
export interface BenchReport {
  /** The metrics are in; `simSelfCheck` gives the started sim's verdict on its writes (null without one). The server info is fetched next. */
  summarized(run: MeasuredRun, simSelfCheck: (() => Promise<string>) | null): Promise<void>;
  finished(result: BenchResult): Promise<void>;
  /**
   * The repeated runs are over (`--num-runs` N ≥ 2): `results` are those no stop signal cut short,
   * two or more, all of one group. Not called for a single run.
   */
  repeated(results: readonly BenchResult[]): Promise<void>;
}

export interface MeasureOptions {
  /**
   * A stop signal from the first request until the results are in: 'finish' summarizes, reports and
   * returns what completed; 'abandon' throws RunInterrupted (at once when the requests were cut short).
   */
  onStop: 'finish' | 'abandon';
  report?: BenchReport;
}

/** A run a stop signal cut short under `onStop: 'abandon'`; its exit status is the signal's. */
export class RunInterrupted extends UserError {
  override readonly code = 'E_RUN_INTERRUPTED';
  constructor(readonly signal: StopSignal) {
    super(`the run was stopped by ${signalName(signal)}`, signalExitCode(signal));
  }
}

/** What {@link BenchSession.measure} returns: at least one run's results, in run order. */
export interface Measured {
  results: BenchResult[];
  signal: StopSignal | null;
}

/** A repeated measurement's group id: random, as two measurements are never the same one. */
function newRepeatGroup(): string {
  return randomBytes(6).toString('hex');
}

export interface BenchSession {
  readonly target: BenchTarget;
  /**
   * The runs of `config` (`config.repeat.runs` of them, fewer when a stop signal ends them): the
   * session's, or a sweep point's (the same target at another load). `signal` is the stop signal
   * that came before the last run's results were kept, or null.
   */
  measure(config: BenchRunConfig, options: MeasureOptions): Promise<Measured>;
  close(): Promise<void>;
}

/** The tokenizer that builds the dataset and recounts the outputs; with the console, bench_serving's chat-template check comes first. */
async function runTokenizer(config: BenchRunConfig, target: BenchTarget, io: BenchIo, benchConsole: OpenOptions['console']): Promise<Tokenizer> {
  const spec = { tokenizer: config.tokenizer, model: target.model };
  if (benchConsole === null) return loadTokenizer(spec);
  const modelTokenizer = await checkChatTemplate(target.model, io.print);
  benchConsole.announce(target);
  return config.tokenizer === null && modelTokenizer !== null ? modelTokenizer : loadTokenizer(spec);
}

/** Opens the target `config` and `options.sim` name; throws UsageError, ModelDiscoveryError, or the sim's and tokenizer's errors. */
export function openBench(config: BenchRunConfig, io: BenchIo, options: OpenOptions): Promise<BenchSession> {
  return openSession(config, io, options);
}

async function openSession(config: BenchRunConfig, io: BenchIo, options: OpenOptions): Promise<OpenSession> {
  const sim = options.sim === null ? null : await options.sim.start(config.dataset.name);
  const pool = new HttpPool({ streamIdleTimeout: config.streamIdleTimeout });
  try {
    const headers = runHeaders(io.env, config.request.headers);
    const address = sim === null ? config.server : simAddress(sim.port);
    const target = await resolveTarget(config, address, pool, headers.withAuth);
    const tokenizer = await runTokenizer(config, target, io, options.console);
    return new OpenSession(target, address, tokenizer, pool, headers, sim, io, options);
  } catch (error) {
    await closeAll(pool, sim);
    throw error;
  }
}

async function closeAll(pool: HttpPool, sim: StartedSim | null): Promise<void> {
  await pool.close();
  await sim?.close();
}

class OpenSession implements BenchSession {
  constructor(
    readonly target: BenchTarget,
    private readonly address: ServerAddress,
    private readonly tokenizer: Tokenizer,
    private readonly pool: HttpPool,
    private readonly headers: RunHeaders,
    private readonly sim: StartedSim | null,
    private readonly io: BenchIo,
    private readonly options: OpenOptions,
  ) {}

  async measure(config: BenchRunConfig, options: MeasureOptions): Promise<Measured> {
    const { target, tokenizer, pool, headers, sim, io } = this;
    const benchConsole = this.options.console;
    const rngs = createBenchRngs(config.seed);
    const dataset = await buildDataset(config, tokenizer, io.print, { rngs });
    const workers = this.workerCount(config, dataset.rows.length);
    const timeScale = await this.setSimTimeScale(config, dataset, rngs);
    // On stderr, as the progress line: stdout stays bench_serving's.
    if (benchConsole !== null) io.notice(stallTimeoutNotice(config.streamIdleTimeout));
    // From the first request until the results are kept, a stop signal ends sending and the results
    // of what completed are still summarized; before that there is nothing to keep.
    const interrupts = new InterruptWatch();
    const abandonOnStop = (): void => {
      if (options.onStop === 'abandon' && interrupts.signal !== null) throw new RunInterrupted(interrupts.signal);
    };
    let benchmark: PreparedBenchmark | null = null;
    const plan = this.planOf(config, dataset, rngs, interrupts, timeScale, (total, silentTransfers) =>
      benchConsole === null ? null : createProgressBar(total, config.output.disableProgress, { silentTransfers }),
    );
    const { shards } = this.options;
    try {
      benchmark = shards == null ? await prepareBenchmark({ ...plan, workers }) : await coordinateShards({ ...plan, ...shards, server: this.address });
      const { runs } = config.repeat;
      const group = runs > 1 ? newRepeatGroup() : null;
      const results: BenchResult[] = [];
      // The runs no stop signal cut short: only they are summarized over.
      const whole: BenchResult[] = [];
      for (let run = 1; run <= runs; run++) {
        // The server settles between runs; a stop signal meanwhile (or in the run before) ends the runs
        // before the next starts. The first always runs: a signal before it leaves it nothing to send.
        if (run > 1) {
          await interrupts.pause(config.repeat.cooldownS);
          abandonOnStop();
          if (interrupts.signal !== null) break;
        }
        const startedAt = new Date();
        const measured = await benchmark.measure({ last: run === runs });
        const cutShort = interrupts.signal !== null;
        abandonOnStop();
        const { metrics, extras, server } = await summarizeRun(measured, config, tokenizer, timeScale);
        const summary: MeasuredRun = {
          config,
          target,
          startedAt,
          outputs: measured.outputs,
          durationS: measured.duration,
          metrics,
          extras,
          server,
          loopHealth: measured.loopHealth,
          selfCheck: judgeClient(measured.loopHealth, requestBoundsOf(measured.outputs)),
          simTimeScale: timeScale,
          repeat: group === null ? null : { group, run, runs },
          shards: measured.shards ?? null,
        };
        await options.report?.summarized(summary, sim === null ? null : () => sim.selfCheck(timeScale));
        const serverInfo = await fetchServerInfo(pool, target.urls.baseUrl, headers.withAuth, pythonJsonLoads);
        const routerWorkers = await fetchRouterWorkersInfo(pool, target.urls.baseUrl, headers.withAuth, serverInfo, pythonJsonLoads);
        const result: BenchResult = { ...summary, serverInfo, routerWorkers };
        await options.report?.finished(result);
        abandonOnStop();
        results.push(result);
        if (!cutShort) whole.push(result);
      }
      if (group !== null && whole.length >= 2) await options.report?.repeated(whole);
      return { results, signal: interrupts.signal };
    } finally {
      await benchmark?.close();
      interrupts.dispose();
    }
  }

  /** What every way of sending a run of `config` needs from this session. */
  private planOf(
    config: BenchRunConfig,
    dataset: Dataset,
    rngs: BenchRngs,
    interrupts: InterruptWatch,
    timeScale: number,
    createProgress: BenchmarkPlan['createProgress'],
  ): Omit<BenchmarkPlan, 'workers' | 'shard' | 'timeScale'> & { timeScale: number } {
    const { target, pool, headers, io } = this;
    return { config, target, dataset, pool, rngs, headers, env: io.env, print: io.print, notice: io.notice, createProgress, interrupts, timeScale };
  }

  /** Sends this shard's requests of `config`'s run when the coordinator says, and reports their raw outputs to it. */
  async sendShare(config: BenchRunConfig, link: ShardLink, welcome: ShardWelcome): Promise<void> {
    const { tokenizer, io } = this;
    const rngs = createBenchRngs(config.seed);
    const dataset = await buildDataset(config, tokenizer, io.print, { rngs });
    const workers = this.workerCount(config, Math.ceil(dataset.rows.length / link.shards));
    const interrupts = new InterruptWatch();
    link.onStop((signal) => interrupts.raise(signal));
    // Nobody will merge what this shard measures: stop sending; the report then says why.
    link.onLost(() => interrupts.raise('SIGTERM'));
    let benchmark: PreparedBenchmark | null = null;
    try {
      benchmark = await prepareBenchmark({
        ...this.planOf(config, dataset, rngs, interrupts, welcome.timeScale, () => ({ update: (done) => link.progress(done), close: () => {} })),
        workers,
        shard: {
          rank: link.rank,
          shards: link.shards,
          maxConcurrency: welcome.concurrency,
          ready: (fingerprint, requests) => link.ready(fingerprint, requests),
        },
      });
      const run = await benchmark.measure({ last: true });
      await link.report({
        items: run.sent,
        startedAt: run.startedAt,
        endedAt: run.startedAt + run.duration,
        stopped: interrupts.signal !== null,
        loopHealth: run.loopHealth,
      });
    } finally {
      await benchmark?.close();
      interrupts.dispose();
    }
  }

  close(): Promise<void> {
    return closeAll(this.pool, this.sim);
  }

  /** The run's time scale (`--sim-time-scale`, 'auto' planned for this workload), set on the started sim; 1 without one. */
  private async setSimTimeScale(config: BenchRunConfig, dataset: Dataset, rngs: BenchRngs): Promise<number> {
    if (this.sim === null) return 1;
    const timeScale = config.simTimeScale === 'auto' ? await autoTimeScale(this.sim, config, dataset, rngs, this.io.env) : config.simTimeScale;
    await this.sim.setTimeScale(timeScale);
    return timeScale;
  }

  private workerCount(config: BenchRunConfig, requests: number): number {
    if (!this.options.workerThreads) return 1;
    const { workers, note } = resolveWorkerCount(config.workers, availableParallelism(), requests);
    if (note !== null) this.io.notice(note);
    return workers;
  }
}

/** Opens the target, runs `config` (`--num-runs` times), closes: what `servebench bench` does. */
export async function runBench(config: BenchRunConfig, io: BenchIo, options: OpenOptions & MeasureOptions): Promise<Measured> {
  const session = await openBench(config, io, options);
  try {
    return await session.measure(config, options);
  } finally {
    await session.close();
  }
}

/** Shard `rank` of `shards` in a sharded run: where its coordinator listens and how long to wait for it. */
export interface ShardOptions {
  rank: number;
  shards: number;
  coordinator: string;
  timeoutS: number;
}

/**
 * One shard of a sharded run (`--shards K` with a shard's rank): joins the coordinator, drives the
 * server and model it names, sends its own requests of the run from the agreed instant and reports
 * their raw outputs. Prints no result of its own: the coordinator's block is the run's.
 */
export async function runShard(config: BenchRunConfig, io: BenchIo, options: ShardOptions): Promise<void> {
  const { host, port } = parseCoordinatorAddress(options.coordinator);
  const { link, welcome } = await ShardLink.open({ host, port, rank: options.rank, shards: options.shards, timeoutS: options.timeoutS, skewS: injectedSkewSeconds(io.env) });
  try {
    // The coordinator's server and model: a sim it started, a model it discovered, the same for every shard.
    const shardConfig: BenchRunConfig = { ...config, server: welcome.server, model: welcome.model, sim: null, serverMetrics: { ...config.serverMetrics, enabled: false } };
    const session = await openSession(shardConfig, io, { sim: null, console: { announce: () => {} }, workerThreads: true });
    try {
      await session.sendShare(shardConfig, link, welcome);
    } finally {
      await session.close();
    }
  } catch (error) {
    link.fail(error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    link.close();
  }
}
