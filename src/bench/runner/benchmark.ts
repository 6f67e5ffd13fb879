/**
 * The measured run of spec §4.1: warmup, cache flush, the 1 s pause, profiler start, arrivals at
 * precomputed absolute times behind the FIFO concurrency limit, profiler stop, accept length —
 * the last two inside the duration, as the reference measures it. Before the pause, servebench
 * opens the warm pool (warm-pool.ts) and builds every request's bytes, so the measured phase only
 * writes them; with `--num-runs` the measured phase repeats on them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../../core/errors.js';
import type { BenchRngs } from '../../core/rng.js';
import { isChatBackend, type RunHeaders } from '../backends/index.js';
import { mooncakeReplayLines } from '../datasets/mooncake.js';
import type { BenchRunConfig } from '../run-config.js';
import type { BenchTarget } from '../target.js';
import { fetchServerInfo, postForStatus } from '../transport/auxiliary.js';
import { nowSeconds } from '../transport/clock.js';
import type { HttpPool, SilentTransfers } from '../transport/http-pool.js';
import type { Dataset, DatasetRow, RequestOutput } from '../types.js';
import type { LoopHealthSample } from '../selfcheck/verdict.js';
import { LoadWorkers, type WorkerTicket } from '../workers/load-workers.js';
import { startThreadHealthMonitor } from '../workers/thread-health.js';
import { acceptLengthFromServerInfo } from './accept-length.js';
import { isMultiTurnPrompt } from './conversation.js';
import { dispatchSchedule } from './dispatch.js';
import type { InterruptWatch } from './interrupt.js';
import { createExecutor, type RequestExecutor } from './executor.js';
import { createLoraPicker } from './lora.js';
import { settleHeap } from '../../core/settle-heap.js';
import { warmPoolNotice, warmPoolSize } from './warm-pool.js';
import { startProfiler, stopProfiler } from './profiler.js';
import { poissonSchedule, timestampSchedule, type ScheduledRequest } from './schedule.js';
import { loopHealthInServerTime, outputInServerTime, stretchSchedule } from './time-scale.js';
import { runWarmup } from './warmup.js';
import { startServerScrape, type ScrapeLog, type ServerScrape } from '../server-metrics/scraper.js';
import type { ShardItem } from '../shards/merge.js';
import type { ShardSummary } from '../shards/summary.js';
import { ownRequests, scheduleFingerprint } from '../shards/split.js';

/** A tqdm-like bar advanced once per finished request (conversation in multi-turn mode). */
export interface Progress {
  update(n: number): void;
  close(): void;
}

export interface BenchmarkPlan {
  config: BenchRunConfig;
  /** The URLs (§1.4) and the payloads' model id. */
  target: BenchTarget;
  dataset: Dataset;
  pool: HttpPool;
  rngs: BenchRngs;
  /** The environment's auth and the `--header` entries. */
  headers: RunHeaders;
  /** `SGLANG_IS_IN_CI` and the profiler's default directory. */
  env: NodeJS.ProcessEnv;
  /** Console lines (stdout). */
  print: (line: string) => void;
  /** Operator notices (stderr), e.g. the stop-signal message. */
  notice: (line: string) => void;
  /** A progress display for `total` requests; `silentTransfers` tells it which streams have gone quiet. */
  createProgress: (total: number, silentTransfers: () => SilentTransfers) => Progress | null;
  /** The stop signals (Ctrl-C, SIGTERM, SIGHUP) that end the measured phase early. */
  interrupts: InterruptWatch;
  /** Seconds in-flight requests get after a stop signal before they are aborted (default 5). */
  interruptGraceSeconds?: number;
  /** Load-generation threads (`--workers`): 1 (default) sends from this thread, more start worker threads. */
  workers?: number;
  /**
   * Wall seconds per second of the server's time (default 1): the sim this run drives runs that much
   * slower, so arrivals are stretched by it and the run's times divided by it (time-scale.ts).
   */
  timeScale?: number;
  /** This process is one shard of a sharded run (shards/): it sends its own requests, from the instant the coordinator gives. */
  shard?: ShardPart;
}

/**
 * A shard's part of a run: the requests it sends (request i is shard (i mod K) + 1's), its slice of
 * `--max-concurrency`, and the gate that reports it ready and waits for the run's start instant.
 */
export interface ShardPart {
  rank: number;
  shards: number;
  /** Its slice of `--max-concurrency` (null: no limit). */
  maxConcurrency: number | null;
  /** Reports the shard ready (`fingerprint`: the whole request list's); resolves to the start instant on this run clock. */
  ready(fingerprint: string, requests: number): Promise<number>;
}

export interface BenchmarkRun {
  /** One output per sent request in dataset order (flattened per turn in multi-turn mode). */
  outputs: RequestOutput[];
  /** The dataset row of each sent request; null in multi-turn mode, where the reference passes none (Q10). */
  rows: DatasetRow[] | null;
  duration: number;
  acceptLength: number | null;
  /** Self-check samples of the loops that sent the requests and stamped their events: the worker threads, or this thread. */
  loopHealth: LoopHealthSample[];
  /** The server's `/metrics` read over the measured window (client wall clock, unparsed); null when off or the server exposes none. */
  serverScrape: ScrapeLog | null;
  /** Each sent request's index in the run's request list and its outputs (one per turn), in send order. */
  sent: ShardItem[];
  /** Run-clock seconds of the start from which every send time counts. */
  startedAt: number;
  /** A sharded run's shards as the coordinator saw them (shards/); absent for one process's run. */
  shards?: ShardSummary[];
}

const PRE_RUN_PAUSE_MS = 1000;
const DEFAULT_GRACE_SECONDS = 5;
const CHAT_BACKENDS_TEXT = 'sglang-oai-chat, vllm-chat, lmdeploy-chat, openai-chat';

function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && ['true', '1'].includes(value.toLowerCase());
}

/** Poisson arrivals, or the trace's own times for mooncake (which ignores `--request-rate`): the whole run's, before any split over shards. */
export function buildSchedule(plan: Pick<BenchmarkPlan, 'config' | 'dataset' | 'rngs' | 'timeScale'>): ScheduledRequest[] {
  const { config, dataset, rngs } = plan;
  const { names, distribution, zipfAlpha } = config.request.lora;
  const pickLora = createLoraPicker(names, distribution, zipfAlpha, rngs);
  const schedule =
    config.dataset.name !== 'mooncake' ? poissonSchedule(dataset.rows, config.load.requestRate, pickLora, rngs.numpy) : timestampSchedule(dataset.rows, pickLora);
  return plan.timeScale === undefined || plan.timeScale === 1 ? schedule : stretchSchedule(schedule, plan.timeScale);
}

/** The run in the server's time: as measured, or divided by the time scale of the sim it drove. */
export function inServerTime(run: BenchmarkRun, timeScale: number | undefined): BenchmarkRun {
  if (timeScale === undefined || timeScale === 1) return run;
  // The outputs are the sent requests' outputs in send order: each is rescaled once, for both.
  const sent = run.sent.map((item) => ({ index: item.index, outputs: item.outputs.map((output) => outputInServerTime(output, timeScale)) }));
  return {
    ...run,
    outputs: sent.flatMap((item) => item.outputs),
    duration: run.duration / timeScale,
    loopHealth: run.loopHealth.map((sample) => loopHealthInServerTime(sample, timeScale)),
    sent,
    startedAt: run.startedAt / timeScale,
  };
}

/** The lines bench_serving prints when it starts a mooncake replay (right before sending). */
function printReplayLines(plan: BenchmarkPlan): void {
  const { config, dataset } = plan;
  if (config.dataset.name !== 'mooncake') return;
  const rounds = Math.max(1, config.dataset.mooncake.numRounds);
  const sessions = Math.round(dataset.rows.length / rounds);
  for (const line of mooncakeReplayLines(sessions, rounds, config.dataset.mooncake.slowdownFactor)) plan.print(line);
}

/** The concurrency limit of this process's sending: `--max-concurrency`, or a shard's slice of it. */
function maxConcurrencyOf(plan: BenchmarkPlan): number | null {
  return plan.shard === undefined ? plan.config.load.maxConcurrency : plan.shard.maxConcurrency;
}

/** Opens the warm pool on the sending threads; a pool that stops short is noticed, and the run goes on. */
async function openWarmPool(plan: BenchmarkPlan, schedule: readonly ScheduledRequest[], workers: LoadWorkers | null): Promise<void> {
  const size = warmPoolSize(schedule, maxConcurrencyOf(plan), plan.config.lazyConnect);
  if (size === 0) return;
  const { apiUrl } = plan.target.urls;
  const outcome = workers ? await workers.prewarm(apiUrl, size) : await plan.pool.prewarm(apiUrl, size);
  const notice = warmPoolNotice(size, outcome);
  if (notice !== null) plan.notice(notice);
}

/** Runs the measured phase; a failure in it (the profiler, the server's info) stops the scrape, whose connection must not outlive the run. */
async function stoppingScrapeOnFailure<T>(scrape: ServerScrape | null, measure: () => Promise<T>): Promise<T> {
  try {
    return await measure();
  } catch (error) {
    await scrape?.stop();
    throw error;
  }
}

/**
 * A benchmark ready to measure: the warmup done, the cache flushed, the warm pool open and every
 * request's bytes built. `measure` runs the measured phase; with `--num-runs` it runs again with
 * the same schedule and the same prepared requests (the cache flushed before each later run), the
 * warm pool's connections reused.
 */
export interface PreparedBenchmark {
  /** Runs the measured phase once; `last`: no run follows, so each request's bytes go once it is sent. */
  measure(options: { last: boolean }): Promise<BenchmarkRun>;
  /** Ends the load workers; the pool is the caller's. */
  close(): Promise<void>;
}

/** What the measured phase needs, built once by {@link prepareBenchmark}. */
interface Prepared {
  plan: BenchmarkPlan;
  schedule: readonly ScheduledRequest[];
  executor: RequestExecutor;
  workers: LoadWorkers | null;
  /** Each schedule item's prepared request, by its index. */
  requests: Map<number, unknown>;
  multiTurn: boolean;
  /** A shard's digest of the whole request list (split.ts); '' in one process. */
  fingerprint: string;
}

/** The server's /metrics readings over the measured window, unless `--no-server-metrics`: the first is taken now. */
export async function startScrapeIfAsked(plan: Pick<BenchmarkPlan, 'config' | 'headers' | 'target'>): Promise<ServerScrape | null> {
  const { config, headers } = plan;
  if (!config.serverMetrics.enabled) return null;
  return startServerScrape({ baseUrl: plan.target.urls.baseUrl, headers: headers.withAuth, intervalS: config.serverMetrics.intervalS });
}

/** The speculative accept length an SGLang server reports after a run (null for other backends). */
export async function readAcceptLength(plan: Pick<BenchmarkPlan, 'config' | 'pool' | 'headers' | 'target'>): Promise<number | null> {
  if (!plan.config.backend.includes('sglang')) return null;
  return acceptLengthFromServerInfo(await fetchServerInfo(plan.pool, plan.target.urls.baseUrl, plan.headers.withAuth));
}

/** Posts /flush_cache when `--flush-cache` asks for it (or bench_serving's CI setting does for sglang). */
export async function flushCacheIfAsked(plan: Pick<BenchmarkPlan, 'config' | 'pool' | 'headers' | 'env' | 'target'>): Promise<void> {
  const { config, pool, headers } = plan;
  if ((config.backend.includes('sglang') && isTruthyEnv(plan.env.SGLANG_IS_IN_CI)) || config.load.flushCache) {
    await postForStatus(pool, `${plan.target.urls.baseUrl}/flush_cache`, headers.withAuth);
  }
}

/** Collects the sending threads' garbage, so the run starts on a settled heap (core/settle-heap.ts). */
async function settleHeaps(workers: LoadWorkers | null): Promise<void> {
  if (workers) await workers.settleHeaps();
  else settleHeap();
}

/** Refuses a dataset that gives nothing to send or multi-turn conversations to a backend without chat; true for multi-turn. */
export function checkRequests(config: Pick<BenchRunConfig, 'backend'>, dataset: Dataset): boolean {
  const { rows } = dataset;
  if (rows.length === 0) {
    throw new UserError('the dataset produced no requests; check --dataset-path, --num-prompts and the length options');
  }
  const multiTurn = dataset.multiTurn || isMultiTurnPrompt(rows[0]!.prompt);
  if (multiTurn && !isChatBackend(config.backend)) {
    throw new UserError(`multi-turn conversations only support chat backends (${CHAT_BACKENDS_TEXT}); got --backend ${config.backend}`);
  }
  return multiTurn;
}

/** Warmup, cache flush, warm pool, every request built: everything before the first measured phase. */
export async function prepareBenchmark(plan: BenchmarkPlan): Promise<PreparedBenchmark> {
  const { config, dataset, pool, headers, print } = plan;
  const { backend } = config;
  const rows = dataset.rows;
  const multiTurn = checkRequests(config, dataset);
  const executorOptions = {
    backend,
    request: config.request,
    apiUrl: plan.target.urls.apiUrl,
    modelId: plan.target.modelId,
    headers,
    multiTurn,
    startAt: config.lazyConnect ? ('connect' as const) : ('write' as const),
  };
  const localExecutor = createExecutor({ ...executorOptions, pool, print });
  // With --workers N > 1 the requests are prepared and sent on N threads; rows become inputs here, as before.
  const workerConfig = { ...executorOptions, streamIdleTimeout: config.streamIdleTimeout, realtime: config.realtime, keepPrepared: config.repeat.runs > 1 };
  const workers = (plan.workers ?? 1) > 1 ? await LoadWorkers.start(plan.workers!, workerConfig, print) : null;
  try {
    const executor: RequestExecutor = workers
      ? { inputFor: localExecutor.inputFor, prepare: (input) => workers.prepare(input), execute: (ticket, release) => workers.execute(ticket as WorkerTicket, release) }
      : localExecutor;

    // Built first (its random draws come after the dataset's either way); replay lines print where the reference prints them.
    const wholeSchedule = buildSchedule(plan);
    const { shard } = plan;
    const schedule = shard === undefined ? wholeSchedule : ownRequests(wholeSchedule, shard.rank, shard.shards);
    const fingerprint = shard === undefined ? '' : scheduleFingerprint(wholeSchedule);
    await runWarmup(config, dataset.warmupRow ?? rows[0]!, executor, print, plan.notice);
    // A sharded run's cache is flushed once, by the coordinator.
    if (shard === undefined) await flushCacheIfAsked(plan);
    await openWarmPool(plan, schedule, workers);
    const requests = new Map<number, unknown>();
    for (const item of schedule) {
      requests.set(item.index, executor.prepare(executor.inputFor(item.row, item.loraName, { ...config.request.extraBody, ...item.row.extraRequestBody })));
    }
    await settleHeaps(workers);
    const prepared: Prepared = { plan, schedule, executor, workers, requests, multiTurn, fingerprint };
    let runs = 0;
    return {
      measure: async ({ last }) => {
        if (runs++ > 0) {
          await flushCacheIfAsked(plan);
          await settleHeaps(workers);
        }
        const run = await measurePhase(prepared, last);
        // A shard's outputs stay on its own clock and in wall time: the coordinator converts the merged run.
        return shard === undefined ? inServerTime(run, plan.timeScale) : run;
      },
      close: async () => {
        await workers?.close();
      },
    };
  } catch (error) {
    await workers?.close();
    throw error;
  }
}

/** One measured phase: the pause, the server's readings, the profiler, the schedule sent (from a shard's agreed start), the run's records on this run clock. */
async function measurePhase(prepared: Prepared, last: boolean): Promise<BenchmarkRun> {
  const { plan, schedule, executor, workers, requests, multiTurn } = prepared;
  const { config, pool, headers, print, shard } = plan;
  const { baseUrl } = plan.target.urls;
  // The pause also gives the server time to accept the warm pool's connections.
  await sleep(PRE_RUN_PAUSE_MS);
  // The server's first reading opens the measured window; later ones ride an unref'd timer on their own connection.
  const scrape = await startScrapeIfAsked(plan);
  const { dispatched, ownLoop, acceptLength, duration, serverScrape } = await stoppingScrapeOnFailure(scrape, async () => {
    const profilerContext = { profile: config.profile, baseUrl, pool, env: plan.env, headers: headers.withoutAuth, print };
    await startProfiler(profilerContext);
    printReplayLines(plan);
    const startAt = shard === undefined ? undefined : await shard.ready(prepared.fingerprint, schedule.length);

    const transfers = workers ?? pool;
    const progress = plan.createProgress(schedule.length, () => transfers.silentTransfers());
    workers?.startMeasuring();
    // Sending from this thread: its loop is the one to judge (and to raise under --realtime).
    const health = workers ? null : startThreadHealthMonitor({ realtime: config.realtime });
    let ownLoop: LoopHealthSample | null = null;
    let dispatched: Awaited<ReturnType<typeof dispatchSchedule>>;
    try {
      dispatched = await dispatchSchedule({
        schedule,
        send: (item, release) => {
          const request = requests.get(item.index);
          // Sent for the last time: its bytes need not outlive the send.
          if (last) requests.delete(item.index);
          return executor.execute(request, release);
        },
        maxConcurrency: maxConcurrencyOf(plan),
        transfers,
        interrupts: plan.interrupts,
        graceSeconds: plan.interruptGraceSeconds ?? DEFAULT_GRACE_SECONDS,
        onDone: () => progress?.update(1),
        notice: plan.notice,
        startAt,
      });
    } finally {
      ownLoop = health?.stop() ?? null;
    }

    await stopProfiler(profilerContext);
    progress?.close();
    // A sharded run's is read once, by the coordinator.
    const acceptLength = shard === undefined ? await readAcceptLength(plan) : null;
    const duration = nowSeconds() - dispatched.start;
    // The last reading closes the window after the duration is taken: it is not part of the run.
    const serverScrape = (await scrape?.stop()) ?? null;
    return { dispatched, ownLoop, acceptLength, duration, serverScrape };
  });
  // Asked after the duration is taken: the workers' reports are not part of the run.
  const loopHealth = workers ? await workers.endMeasuring() : ownLoop ? [ownLoop] : [];
  return {
    outputs: dispatched.sent.flatMap((item) => item.outputs),
    rows: multiTurn ? null : dispatched.sent.map((item) => schedule[item.index]!.row),
    duration,
    acceptLength,
    loopHealth,
    serverScrape,
    sent: dispatched.sent.map((item) => ({ index: schedule[item.index]!.index, outputs: item.outputs })),
    startedAt: dispatched.start,
  };
}

/** Prepares, measures once and ends the workers: one run of bench_serving's §4.1. */
export async function runBenchmark(plan: BenchmarkPlan): Promise<BenchmarkRun> {
  const benchmark = await prepareBenchmark(plan);
  try {
    return await benchmark.measure({ last: true });
  } finally {
    await benchmark.close();
  }
}
