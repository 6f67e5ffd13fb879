/**
 * Burst mode of bench/client-accuracy.ts: is the client true from the first request? bench_serving's
 * traffic starts with a burst: `--request-rate inf --max-concurrency C` opens C streams at once.
 * Each point runs the bench pipeline itself (runBenchmark: warmup, warm pool, prepared requests,
 * the dispatcher, the transport, `--workers`) against a truth-mode sim in its own process, with
 * C × waves prompts, and compares every request with the sim's record of the same request (`rid`,
 * on the shared clock):
 *
 * - truth TTFT: the sim's first write − the request's start, the instant its bytes left (with
 *   `--lazy-connect`, its own connection attempt): what a perfect client would have measured;
 * - the decomposition of the time before the first token: waiting for a connection (from when
 *   the request was due), connecting, writing, the sim reading it (arrival − start), and the sim's
 *   own arrival → first write;
 * - every read's error against the self-check's bound for it. A chunk reached the client's socket
 *   during the sim's write: the error is at most the client's stamp − the write's start, and at
 *   least its stamp − the write's end; only the latter beyond the bound is a certain understatement.
 *
 * The first wave (the first C requests, due at once) and the later ones (each due when a slot
 * frees) are reported apart.
 */
import { parseBenchArgs } from '../src/bench/args/parse.js';
import type { BackendName } from '../src/bench/args/types.js';
import { calculateMetrics } from '../src/bench/metrics/calculate.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import { runBenchmark } from '../src/bench/runner/benchmark.js';
import { InterruptWatch } from '../src/bench/runner/interrupt.js';
import { judgeClient, requestBoundsOf, type ClientVerdict } from '../src/bench/selfcheck/verdict.js';
import { resolveTarget } from '../src/bench/target.js';
import { HttpPool } from '../src/bench/transport/http-pool.js';
import type { DatasetRow, RequestOutput } from '../src/bench/types.js';
import { threadClockOffsetMs, toSharedSeconds } from '../src/bench/workers/clock.js';
import { mean, median, percentile } from '../src/core/stats.js';
import { createBenchRngs } from '../src/core/rng.js';
import { fetchTruth, MODEL, withTruthSim, type TruthRecord } from './truth-sim.js';

export type BurstApi = 'generate' | 'completions';

export interface BurstPoint {
  /** `--max-concurrency`: the streams opened at once. */
  streams: number;
  /** Prompts = streams × waves. */
  waves: number;
  api: BurstApi;
  /** The sim's inter-token interval, ms (grows with the streams so the event rate stays what the box can serve). */
  itlMs: number;
  tokens: number;
  workers: number;
  lazyConnect: boolean;
}

export interface BurstOptions {
  ttftMs: number;
  /** Client loops under SCHED_FIFO (`--realtime`), and the sim's (`--sim-realtime`). */
  clientRealtime: boolean;
  simRealtime: boolean;
}

const BACKEND: Record<BurstApi, BackendName> = { generate: 'sglang', completions: 'sglang-oai' };
/** Clock offsets between threads are measured to a few µs. */
const CLOCK_SLACK_MS = 0.1;

/** What one request did, in ms; null fields where the request failed or has no truth. */
interface RequestFacts {
  clientTtft: number;
  truthTtft: number;
  wait: number;
  connect: number;
  write: number;
  /** The sim's arrival − the request's start: the sim reading the request. */
  serverRead: number;
  /** The sim's arrival → first write. */
  serverTtft: number;
  /** Largest read error, as much as it can be: client stamp − the start of the sim's write. */
  worstReadError: number;
  /** Largest read error, as little as it can be: client stamp − the end of the sim's write. */
  worstCertainError: number;
  /** The self-check's bound for this request. */
  bound: number;
}

/** Figures of one group of requests (the first wave, or the later ones). */
export interface WaveFigures {
  requests: number;
  failed: number;
  clientMeanTtft: number;
  truthMeanTtft: number;
  clientP99Ttft: number;
  truthP99Ttft: number;
  wait: number;
  connect: number;
  write: number;
  serverRead: number;
  serverTtft: number;
  worstReadError: number;
  /** Requests whose read error certainly exceeded their own bound (from the end of the sim's write). */
  beyondBound: number;
  /** The most by which a read error certainly exceeded its request's own bound, ms (negative: every read within it). */
  worstExcess: number;
}

export interface BurstRow {
  point: BurstPoint;
  first: WaveFigures;
  later: WaveFigures | null;
  itl: { clientMean: number; truthMean: number; clientMedian: number; truthMedian: number };
  verdict: ClientVerdict;
  /** The most by which a read's certain error exceeded the bound the verdict states for its request (ms): never positive when the self-check holds. */
  understatement: number;
  /** The sim's write lateness (actual − scheduled) at p99 over the run: how far it was from its own schedule. */
  simLatenessP99: number;
}

/** The `rid` of the burst's request i: the sim's truth and the wire capture name requests by it. */
export function burstRequestId(i: number): string {
  return `burst-${i}`;
}

function rowsFor(point: BurstPoint): DatasetRow[] {
  return Array.from({ length: point.streams * point.waves }, (_, i) => ({
    prompt: `Tell me story ${i}.`,
    promptLen: 6,
    outputLen: point.tokens,
    textPromptLen: 6,
    visionPromptLen: 0,
    imageData: null,
    // The sim takes `rid` as the id of its truth record (SGLang's request id).
    extraRequestBody: { rid: burstRequestId(i) },
  }));
}

/** Receive times of a successful output's token events (shared clock, ms). */
function receivedMs(output: RequestOutput, offsetMs: number): number[] {
  let at = toSharedSeconds(output.startTime + output.ttft, offsetMs) * 1000;
  const times = [at];
  for (const gap of output.itl) times.push((at += gap * 1000));
  return times;
}

function factsOf(output: RequestOutput, record: TruthRecord | undefined, offsetMs: number): RequestFacts | null {
  if (!output.success || record === undefined || output.sendPhases === undefined) return null;
  const startMs = toSharedSeconds(output.startTime, offsetMs) * 1000;
  const received = receivedMs(output, offsetMs);
  const errorFrom = (written: readonly number[]): number => Math.max(...received.map((at, k) => at - (written[k] ?? NaN)));
  return {
    clientTtft: output.ttft * 1000,
    truthTtft: record.actualMs[0]! - startMs,
    wait: output.sendPhases.wait * 1000,
    connect: output.sendPhases.connect * 1000,
    write: output.sendPhases.write * 1000,
    serverRead: record.arrivalMs - startMs,
    serverTtft: record.actualMs[0]! - record.arrivalMs,
    worstReadError: errorFrom(record.actualMs),
    worstCertainError: errorFrom(record.writtenMs),
    bound: (output.stampLatenessBound ?? 0) * 1000,
  };
}

function waveFigures(facts: ReadonlyArray<RequestFacts | null>): WaveFigures {
  const ok = facts.filter((fact): fact is RequestFacts => fact !== null);
  const of = (pick: (fact: RequestFacts) => number): number[] => ok.map(pick);
  return {
    requests: facts.length,
    failed: facts.length - ok.length,
    clientMeanTtft: mean(of((f) => f.clientTtft)),
    truthMeanTtft: mean(of((f) => f.truthTtft)),
    clientP99Ttft: percentile(of((f) => f.clientTtft), 99),
    truthP99Ttft: percentile(of((f) => f.truthTtft), 99),
    wait: mean(of((f) => f.wait)),
    connect: mean(of((f) => f.connect)),
    write: mean(of((f) => f.write)),
    serverRead: mean(of((f) => f.serverRead)),
    serverTtft: mean(of((f) => f.serverTtft)),
    worstReadError: Math.max(...of((f) => f.worstReadError)),
    beyondBound: ok.filter((f) => f.worstCertainError > f.bound + CLOCK_SLACK_MS).length,
    worstExcess: Math.max(...of((f) => f.worstCertainError - f.bound)),
  };
}

/** What the verdict says for a request whose own bound is `bound`: the calm requests' bound, or the stalled ones'. */
export function statedBound(verdict: ClientVerdict, bound: number): number {
  return bound <= verdict.timingErrorBoundMs ? verdict.timingErrorBoundMs : verdict.worstRequestBoundMs;
}

/** The run's outputs against the sim's truth. */
function analyze(point: BurstPoint, outputs: readonly RequestOutput[], truth: Record<string, TruthRecord>, verdict: ClientVerdict): Omit<BurstRow, 'simLatenessP99'> {
  const offsetMs = threadClockOffsetMs();
  const facts = outputs.map((output, i) => factsOf(output, truth[burstRequestId(i)], offsetMs));
  const timed = outputs.filter((_output, i) => facts[i] !== null);
  const truthGaps: number[] = [];
  outputs.forEach((_output, i) => {
    const actual = truth[burstRequestId(i)]?.actualMs;
    if (facts[i] !== null && actual) for (let k = 1; k < actual.length; k++) truthGaps.push(actual[k]! - actual[k - 1]!);
  });
  const metrics = calculateMetrics({ outputs: timed, durationS: 1, backend: BACKEND[point.api], acceptLength: null, retokenizedOutputLens: timed.map(() => 0) });
  const understatement = Math.max(
    -Infinity,
    ...facts.flatMap((fact) => (fact === null ? [] : [fact.worstCertainError - statedBound(verdict, fact.bound)])),
  );
  return {
    point,
    first: waveFigures(facts.slice(0, point.streams)),
    later: point.waves > 1 ? waveFigures(facts.slice(point.streams)) : null,
    itl: { clientMean: metrics.meanItlMs, truthMean: mean(truthGaps), clientMedian: metrics.medianItlMs, truthMedian: median(truthGaps) },
    verdict,
    understatement,
  };
}

/** p99 of the sim's write lateness (actual − scheduled) over every chunk it wrote. */
function simLatenessP99(truth: Record<string, TruthRecord>): number {
  const lateness: number[] = [];
  for (const record of Object.values(truth)) for (let i = 0; i < record.actualMs.length; i++) lateness.push(record.actualMs[i]! - record.scheduledMs[i]!);
  return percentile(lateness, 99);
}

/** The outputs of one burst point's run through the bench pipeline against the server at `url`, and the client's verdict. */
export async function runBurst(point: BurstPoint, options: BurstOptions, url: string): Promise<{ outputs: RequestOutput[]; verdict: ClientVerdict }> {
  const config = resolveRunConfig(
    parseBenchArgs([
      '--backend', BACKEND[point.api], '--base-url', url, '--model', MODEL, '--request-rate', 'inf',
      '--max-concurrency', String(point.streams), '--num-prompts', String(point.streams * point.waves),
      '--workers', String(point.workers), '--disable-tqdm', '--no-catalog',
      ...(options.clientRealtime ? ['--realtime'] : []),
      ...(point.lazyConnect ? ['--lazy-connect'] : []),
    ]),
  );
  const pool = new HttpPool({ streamIdleTimeout: config.streamIdleTimeout });
  const interrupts = new InterruptWatch();
  try {
    const target = await resolveTarget(config, config.server, pool, {});
    const run = await runBenchmark({
      config,
      target,
      dataset: { rows: rowsFor(point), multiTurn: false },
      pool,
      rngs: createBenchRngs(config.seed),
      headers: { withAuth: {}, withoutAuth: {} },
      env: {},
      print: () => {},
      notice: (line) => process.stderr.write(`${line}\n`),
      createProgress: () => null,
      interrupts,
      workers: point.workers,
    });
    return { outputs: run.outputs, verdict: judgeClient(run.loopHealth, requestBoundsOf(run.outputs)) };
  } finally {
    interrupts.dispose();
    await pool.close();
  }
}

/** One burst point through the bench pipeline against a fresh truth-mode sim. */
export async function measureBurst(point: BurstPoint, options: BurstOptions): Promise<BurstRow> {
  return withTruthSim({ ttftMs: options.ttftMs, itlMs: point.itlMs, sharedSteps: false, realtime: options.simRealtime }, async (sim) => {
    const { outputs, verdict } = await runBurst(point, options, sim.url);
    const truth = await fetchTruth(sim.url);
    return { ...analyze(point, outputs, truth, verdict), simLatenessP99: simLatenessP99(truth) };
  });
}

const f = (value: number, digits = 2): string => value.toFixed(digits);

/** The burst table and the verdict of each point. */
export function printBurst(rows: readonly BurstRow[]): void {
  console.log('');
  console.log(
    '| streams | prompts | API | connects | requests | failed | mean TTFT client / truth (diff) | p99 TTFT client / truth (diff) ' +
      '| wait / connect / write | sim read | sim TTFT | worst read error | certainly beyond own bound (worst excess) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const { point } = row;
    const waves: Array<[string, WaveFigures | null]> = [['first wave', row.first], ['later', row.later]];
    for (const [name, wave] of waves) {
      if (wave === null) continue;
      console.log(
        `| ${point.streams} | ${point.streams * point.waves} | ${point.api} | ${point.lazyConnect ? 'lazy' : 'warm pool'} | ${name}: ${wave.requests} | ${wave.failed} | ` +
          `${f(wave.clientMeanTtft)} / ${f(wave.truthMeanTtft)} (${f(wave.clientMeanTtft - wave.truthMeanTtft)}) | ` +
          `${f(wave.clientP99Ttft)} / ${f(wave.truthP99Ttft)} (${f(wave.clientP99Ttft - wave.truthP99Ttft)}) | ` +
          `${f(wave.wait)} / ${f(wave.connect)} / ${f(wave.write, 3)} | ${f(wave.serverRead)} | ${f(wave.serverTtft)} | ${f(wave.worstReadError)} | ${wave.beyondBound} (${f(wave.worstExcess)}) |`,
      );
    }
  }
  console.log('');
  console.log('| streams | prompts | API | connects | mean ITL client / truth | median ITL client / truth | sim write lateness p99 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const { point, itl, simLatenessP99: lateness } of rows) {
    console.log(
      `| ${point.streams} | ${point.streams * point.waves} | ${point.api} | ${point.lazyConnect ? 'lazy' : 'warm pool'} | ` +
        `${f(itl.clientMean, 3)} / ${f(itl.truthMean, 3)} | ${f(itl.clientMedian, 3)} / ${f(itl.truthMedian, 3)} | ${f(lateness)} ms |`,
    );
  }
  console.log('');
  for (const row of rows) {
    const { point } = row;
    const holds = row.understatement <= CLOCK_SLACK_MS ? 'holds' : `UNDERSTATED by ${f(row.understatement)} ms`;
    console.log(
      `${point.streams} streams, ${point.streams * point.waves} prompts, ${point.api}${point.lazyConnect ? ', --lazy-connect' : ''}: ${row.verdict.line} ` +
        `[worst certain read error − stated bound: ${f(row.understatement)} ms: ${holds}]`,
    );
  }
}
