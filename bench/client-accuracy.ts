/**
 * How accurate is the bench client, and what does it cost? Drives a truth-mode sim (its own
 * process, as `servebench sim --truth-ttft-ms T --truth-itl-ms I` runs) with S closed-loop
 * streams through the client's real request path (backend adapter, the keep-alive HTTP/1.1
 * transport on net.Socket, `--workers` threads), then compares what the client measured with
 * what the server says it wrote (GET /sim/truth, on the shared process.hrtime clock) and reports
 * client CPU per token event.
 *
 *   npx tsx bench/client-accuracy.ts                       # the default matrix (~10 minutes)
 *   npx tsx bench/client-accuracy.ts --points 1024x10 --workers 2 --seconds 8 --cpu-rows off
 *
 * Options: --points SxI[,SxI...] (streams x truth ITL ms; `none` runs the CPU rows only), --workers N[,N...], --seconds window,
 * --tokens output tokens per request, --ttft-ms truth TTFT, --cpu-rows on|off, --cpu-points SxI[,...],
 * --cpu-tokens N, --realtime client|sim|both|off (which loops run under SCHED_FIFO where permitted;
 * default client, as `bench --realtime` runs it: on a 2-core box shared with the sim, a
 * normal-priority client loop that wakes for an event often waits for a core, and that wait is
 * the client's timing error; a SCHED_FIFO sim preempts the client instead), --emission
 * spread|steps[,...] (how the sim's writes fall: each request on its own phase, or all on one step
 * clock as a continuous-batching engine writes them; default spread), --python auto|PATH|off (the
 * interpreter of the Python rows; auto takes the first of python3 and /usr/bin/python3 with aiohttp),
 * --scrape-metrics off|SECONDS (read the sim's /metrics every SECONDS during each accuracy point, on
 * the client's thread and its own connection, as `bench` does; default off: the rows with and
 * without it give the scrape's cost to the client's timing).
 * The accuracy rows use SGLang's native /generate (its `rid` pairs each request with its truth);
 * the CPU rows compare native (cumulative text) and OpenAI completions (incremental) streams, give
 * the kernel's share of the client CPU (socket reads, the ACKs they send, epoll), the same streams
 * read by bench_serving's Python client (bench/python-client-baseline.py: its CPU per event, and
 * its timing against the truth on native streams) and by a bare net.Socket that parses nothing:
 * the floor under any Node client.
 */
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, setPriority } from 'node:os';
import type { BackendName } from '../src/bench/args/types.js';
import { parseBenchArgs } from '../src/bench/args/parse.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import { calculateMetrics } from '../src/bench/metrics/calculate.js';
import { createExecutor } from '../src/bench/runner/executor.js';
import type { LoopHealthMonitor } from '../src/bench/selfcheck/monitor.js';
import { judgeClient, requestBoundsOf, type LoopHealthSample } from '../src/bench/selfcheck/verdict.js';
import { HttpPool } from '../src/bench/transport/http-pool.js';
import { nowSeconds } from '../src/bench/transport/clock.js';
import type { RequestInput, RequestOutput } from '../src/bench/types.js';
import { threadClockOffsetMs, toSharedSeconds } from '../src/bench/workers/clock.js';
import { LoadWorkers } from '../src/bench/workers/load-workers.js';
import type { LoadWorkerConfig } from '../src/bench/workers/messages.js';
import { startThreadHealthMonitor } from '../src/bench/workers/thread-health.js';
import { startModuleWorker } from '../src/core/module-worker.js';
import { mean, median, percentile } from '../src/core/stats.js';
import type { IdleCanaryReport } from './idle-canary.js';
import { findPython, PYTHON_CANDIDATES, PYTHON_CLIENT } from './python-interpreter.js';
import { measureBurst, printBurst, type BurstApi, type BurstRow } from './client-burst.js';
import { fetchTruth, MODEL, withTruthSim, type TruthRecord, type TruthSim } from './truth-sim.js';
import { startServerScrape } from '../src/bench/server-metrics/scraper.js';

type Api = 'generate' | 'completions';
type Realtime = 'client' | 'sim' | 'both' | 'off';

const REALTIME_LOOPS: Record<Realtime, string> = {
  client: "the client's load-generating loops",
  sim: "the sim's serving loop",
  both: "the client's load-generating loops and the sim's serving loop",
  off: 'no loop',
};

function clientIsRealtime(options: Options): boolean {
  return options.realtime === 'client' || options.realtime === 'both';
}

/**
 * One request's duration and the measured window [t0, t1) on the run clock: the window opens after
 * a ramp of one request's duration + RAMP_EXTRA_SECONDS, counted from now.
 */
function measuredWindow(point: Point, options: Options): { requestSeconds: number; t0: number; t1: number } {
  const requestSeconds = (options.ttftMs + (point.tokens - 1) * point.itlMs) / 1000;
  const t0 = nowSeconds() + requestSeconds + RAMP_EXTRA_SECONDS;
  return { requestSeconds, t0, t1: t0 + options.seconds };
}

function emissionChoice(text: string): Emission {
  if (text === 'spread' || text === 'steps') return text;
  throw new Error(`--emission: expected spread, steps or both separated by a comma, got ${text}`);
}

function realtimeChoice(text: string): Realtime {
  if (text === 'client' || text === 'sim' || text === 'both' || text === 'off') return text;
  throw new Error(`--realtime: expected client, sim, both or off, got ${text}`);
}

/**
 * When the sim writes: `spread`, each request on its own phase (streams started over one request's
 * duration, so writes are spread evenly and a client wakes for nearly every event); `steps`, every
 * request on one step clock (`--truth-shared-steps`), as a continuous-batching engine writes one
 * decode step to all running streams at once.
 */
type Emission = 'spread' | 'steps';

interface Point {
  streams: number;
  itlMs: number;
  emission: Emission;
  workers: number;
  api: Api;
  /** Output tokens per request. */
  tokens: number;
}

interface Options {
  points: Array<{ streams: number; itlMs: number }>;
  workers: number[];
  seconds: number;
  tokens: number;
  ttftMs: number;
  cpuRows: boolean;
  /**
   * Which event loops run under SCHED_FIFO where permitted: the client's load-generating loop
   * (bench's `--realtime`), the sim's serving loop (`--sim-realtime`), both, or neither.
   */
  realtime: Realtime;
  /** Output tokens per request of the CPU rows: long enough that per-request costs do not dominate. */
  cpuTokens: number;
  /** Loads of the CPU rows (streams x ITL ms), each run with both stream formats. */
  cpuPoints: Array<{ streams: number; itlMs: number }>;
  /** Write patterns of the sim, each run at every point. */
  emissions: Emission[];
  /** Interpreter of the Python rows: `auto` (the first of PYTHON_CANDIDATES with aiohttp), a path, or `off`. */
  python: string;
  /** Burst mode (client-burst.ts) instead of the steady-state rows; null runs the steady state. */
  burst: BurstMatrix | null;
  /** Seconds between readings of the sim's /metrics during an accuracy point (bench's scrape); null reads none. */
  scrapeMetricsS: number | null;
}

/** The burst points: every stream count × waves × API × connect mode. */
interface BurstMatrix {
  streams: number[];
  waves: number[];
  apis: BurstApi[];
  lazyConnect: boolean[];
  /** The sim's interval is chosen per stream count so the offered events per second stay at this. */
  eventsPerS: number;
}

interface LatencyFigures {
  meanItl: number;
  medianItl: number;
  p99Itl: number;
  meanTtft: number;
}

interface Accuracy {
  client: LatencyFigures;
  /** The same requests as the server wrote them; TTFT from the client's send (shared clock). */
  truth: LatencyFigures;
  /** Mean arrival → first write as the server saw it. */
  serverTtft: number;
}

interface Row {
  point: Point;
  /** Requests sent in the measured window. */
  requests: number;
  errors: number;
  /** Count and first message per cause, e.g. `3 reset: "read ECONNRESET"`; empty without errors. */
  errorCauses: string;
  eventsPerS: number;
  /** Null for OpenAI streams: the sim keys those by its own ids, so they cannot be matched. */
  accuracy: Accuracy | null;
  lateness: { p50: number; p99: number };
  cpuUsPerEvent: number;
  /** The kernel's share of it (socket reads and writes, epoll). */
  systemCpuUsPerEvent: number;
  verdict: string;
  clientRssMb: number;
  simRssMb: number;
  /** What a thread that did nothing saw (the jitter the machine itself adds) and what it cost. */
  idleLoop: IdleCanaryReport;
  /** Length of the measured window, s. */
  windowSeconds: number;
  /** 1-minute load average when the point started: the box is shared, this says how quiet it was. */
  loadAverage: number;
}

const DEFAULT_POINTS = '64x10,256x10,1024x50,4096x200,8192x400';
/** ~50k events/s offered (the target's load), and half of it, which the sim on a 2-core box keeps up with better. */
const DEFAULT_CPU_POINTS = '1024x20,1024x40';
/** The burst sizes of the issue: C streams opened at once. */
const DEFAULT_BURST_STREAMS = '256,2048,8192';
/** Ramp beyond one request's duration before the window opens: every stream is on its second request. */
const RAMP_EXTRA_SECONDS = 1;

function parseOptions(argv: string[]): Options {
  const get = (name: string, fallback: string): string => {
    const at = argv.indexOf(`--${name}`);
    return at === -1 ? fallback : argv[at + 1]!;
  };
  const points = (name: string, fallback: string): Options['points'] =>
    get(name, fallback)
      .split(',')
      .filter((text) => text !== 'none')
      .map((text) => {
        const [streams, itlMs] = text.split('x').map(Number);
        if (!Number.isInteger(streams) || !(itlMs! > 0)) throw new Error(`--${name}: expected STREAMSxITL_MS, got ${text}`);
        return { streams: streams!, itlMs: itlMs! };
      });
  return {
    points: points('points', DEFAULT_POINTS),
    cpuPoints: points('cpu-points', DEFAULT_CPU_POINTS),
    workers: get('workers', '1,2').split(',').map(Number),
    seconds: Number(get('seconds', '10')),
    tokens: Number(get('tokens', '32')),
    ttftMs: Number(get('ttft-ms', '50')),
    cpuRows: get('cpu-rows', 'on') === 'on',
    realtime: realtimeChoice(get('realtime', 'client')),
    cpuTokens: Number(get('cpu-tokens', '256')),
    emissions: get('emission', 'spread').split(',').map(emissionChoice),
    python: get('python', 'auto'),
    scrapeMetricsS: get('scrape-metrics', 'off') === 'off' ? null : Number(get('scrape-metrics', 'off')),
    burst: argv.includes('--burst')
      ? {
          streams: get('burst', DEFAULT_BURST_STREAMS).split(',').map(Number),
          waves: get('burst-waves', '1,2').split(',').map(Number),
          apis: get('burst-api', 'generate,completions').split(',').map(burstApiChoice),
          lazyConnect: { off: [false], on: [true], both: [false, true] }[get('burst-lazy', 'off')] ?? [false],
          eventsPerS: Number(get('burst-events-per-s', '25600')),
        }
      : null,
  };
}

function burstApiChoice(text: string): BurstApi {
  if (text === 'generate' || text === 'completions') return text;
  throw new Error(`--burst-api: expected generate, completions or both separated by a comma, got ${text}`);
}

/** Every point of the burst matrix, measured one after another. */
async function runBursts(matrix: BurstMatrix, options: Options): Promise<void> {
  const burstOptions = {
    ttftMs: options.ttftMs,
    clientRealtime: clientIsRealtime(options),
    simRealtime: options.realtime === 'sim' || options.realtime === 'both',
  };
  const rows: BurstRow[] = [];
  for (const lazyConnect of matrix.lazyConnect) {
    for (const streams of matrix.streams) {
      // At least 10 ms between a stream's tokens; more streams, longer intervals: the same events per second.
      const itlMs = Math.max(10, (streams * 1000) / matrix.eventsPerS);
      for (const waves of matrix.waves) {
        for (const api of matrix.apis) {
          const point = { streams, waves, api, itlMs, tokens: options.tokens, workers: options.workers[0]!, lazyConnect };
          rows.push(await measureBurst(point, burstOptions));
          process.stderr.write(`done: burst of ${streams} streams, ${streams * waves} prompts, ${api}${lazyConnect ? ', lazy connects' : ''} (load ${loadavg()[0]!.toFixed(1)})\n`);
        }
      }
    }
  }
  printBurst(rows);
}

/** The truth-mode sim of `point`, with the loops `--realtime` names under SCHED_FIFO. */
function withSim<T>(point: Point, options: Options, measure: (sim: TruthSim) => Promise<T>): Promise<T> {
  const realtime = options.realtime === 'sim' || options.realtime === 'both';
  const metrics = options.scrapeMetricsS !== null;
  return withTruthSim({ ttftMs: options.ttftMs, itlMs: point.itlMs, sharedSteps: point.emission === 'steps', realtime, metrics }, measure);
}

/** Resident memory of a process now, from /proc (MB); NaN where /proc is missing. */
function rssMb(pid: number | 'self'): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface Client {
  execute(input: RequestInput): Promise<RequestOutput>;
  /** The measured window opens: the self-check covers it from now on, not the ramp. */
  startMeasuring(): void;
  /** Ends the client; the self-check samples of its load-generating loops. */
  close(): Promise<LoopHealthSample[]>;
}

const BACKEND: Record<Api, BackendName> = { generate: 'sglang', completions: 'sglang-oai' };
const PATH: Record<Api, string> = { generate: '/generate', completions: '/v1/completions' };

/**
 * The CLI's executor with the CLI's defaults: on the main thread for one worker (no thread hop),
 * on `--workers N` threads otherwise.
 */
async function startClient(point: Point, url: string, realtime: boolean): Promise<Client> {
  const { backend, request, streamIdleTimeout } = resolveRunConfig(parseBenchArgs(['--backend', BACKEND[point.api]]));
  const config: LoadWorkerConfig = {
    backend,
    request,
    streamIdleTimeout,
    realtime,
    keepPrepared: false,
    apiUrl: url + PATH[point.api],
    modelId: MODEL,
    headers: { withAuth: {}, withoutAuth: {} },
    multiTurn: false,
    startAt: 'write',
  };
  if (point.workers > 1) {
    const workers = await LoadWorkers.start(point.workers, config, console.log);
    return {
      execute: async (input) => (await workers.execute(workers.prepare(input), { queueTime: 0, dueAt: nowSeconds() }))[0]!,
      startMeasuring: () => workers.startMeasuring(),
      close: async () => {
        const samples = await workers.endMeasuring();
        await workers.close();
        return samples;
      },
    };
  }
  const pool = new HttpPool({ streamIdleTimeout });
  const executor = createExecutor({ ...config, pool, print: console.log });
  let health: ReturnType<typeof startThreadHealthMonitor> | null = null;
  return {
    execute: async (input) => (await executor.execute(executor.prepare(input), { queueTime: 0, dueAt: nowSeconds() }))[0]!,
    startMeasuring: () => {
      health = startThreadHealthMonitor({ realtime });
    },
    close: async () => {
      const sample = health?.stop();
      await pool.close();
      return sample ? [sample] : [];
    },
  };
}

function requestInput(url: string, api: Api, outputLen: number, rid: string): RequestInput {
  return {
    prompt: `Tell me story ${rid}.`,
    apiUrl: url + PATH[api],
    promptLen: 6,
    outputLen,
    model: MODEL,
    loraName: null,
    imageData: null,
    // The sim's native API takes `rid` as the request id of its truth record.
    extraRequestBody: api === 'generate' ? { rid } : {},
  };
}

/** Receive times (run clock, s) of a successful output's token events. */
function eventTimes(output: RequestOutput): number[] {
  if (!output.success) return [];
  let at = output.startTime + output.ttft;
  const times = [at];
  for (const gap of output.itl) times.push((at += gap));
  return times;
}

/**
 * An idle thread in the client process (bench/idle-canary.ts) measuring its own loop delay over
 * the window: the floor under the client's timing error. Its CPU is reported so that the client's
 * CPU can leave it out.
 */
function startCanary(): { open(): void; close(): Promise<IdleCanaryReport> } {
  const worker = startModuleWorker(import.meta.url, 'idle-canary', {});
  return {
    open: () => worker.postMessage('open'),
    close: () =>
      new Promise<IdleCanaryReport>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('close');
      }),
  };
}

interface Snapshot {
  /** Process CPU seconds: every thread of the client, workers included. */
  cpuSeconds: number;
  systemCpuSeconds: number;
  clientRssMb: number;
  simRssMb: number;
}

/** Resolves at run-clock second `at` with the client's CPU and both processes' memory then. */
function snapshotAt(at: number, simPid: number, then: () => void = () => {}): Promise<Snapshot> {
  return new Promise((resolve) =>
    setTimeout(() => {
      then();
      const usage = process.cpuUsage();
      resolve({ cpuSeconds: (usage.user + usage.system) / 1e6, systemCpuSeconds: usage.system / 1e6, clientRssMb: rssMb('self'), simRssMb: rssMb(simPid) });
    }, Math.max(0, (at - nowSeconds()) * 1000)),
  );
}

/**
 * One point in steady state. S closed-loop streams start spread over one request's duration (no
 * burst of connects, no waves); the ramp warms connections and the JIT, then the window
 * [T0, T1) is measured: requests sent in it are compared with the server's truth for the same
 * request (matched by `rid`), CPU is read at T0 and T1, and events received in it are counted.
 */
async function measurePoint(point: Point, options: Options): Promise<Row> {
  const loadAverage = loadavg()[0]!;
  return withSim(point, options, async (sim) => {
    const client = await startClient(point, sim.url, clientIsRealtime(options));
    // bench's /metrics scrape, on this thread (the one that sends and stamps with one worker) and its own connection.
    const scrape = options.scrapeMetricsS === null ? null : await startServerScrape({ baseUrl: sim.url, headers: {}, intervalS: options.scrapeMetricsS });
    if (options.scrapeMetricsS !== null && scrape === null) throw new Error('the truth sim served no /metrics to scrape');
    const canary = startCanary();
    const { requestSeconds, t0, t1 } = measuredWindow(point, options);
    const measured: Array<{ rid: string; output: RequestOutput }> = [];
    const all: RequestOutput[] = [];
    let serial = 0;
    const stream = async (index: number): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, (index / point.streams) * requestSeconds * 1000));
      while (nowSeconds() < t1) {
        const rid = `ca-${serial++}`;
        const input = requestInput(sim.url, point.api, point.tokens, rid);
        const output = await client.execute(input);
        all.push(output);
        if (output.startTime >= t0) measured.push({ rid, output });
      }
    };
    let canaryReport: Promise<IdleCanaryReport> | null = null;
    const [atT0, atT1] = (await Promise.all([
      snapshotAt(t0, sim.child.pid!, () => {
        client.startMeasuring();
        canary.open();
      }),
      snapshotAt(t1, sim.child.pid!, () => {
        canaryReport = canary.close();
      }),
      ...Array.from({ length: point.streams }, (_, i) => stream(i)),
    ])) as [Snapshot, Snapshot];
    const scrapeLog = (await scrape?.stop()) ?? null;
    const samples = await client.close();
    const idleLoop = await canaryReport!;
    // The idle thread's CPU is the instrument's: the client's is the process's without it.
    const canaryCpu = idleLoop.cpu ?? { userSeconds: 0, systemSeconds: 0 };
    const events = all.reduce((sum, output) => sum + eventTimes(output).filter((t) => t >= t0 && t < t1).length, 0);

    const truth = await fetchTruth(sim.url);
    const offsetMs = threadClockOffsetMs();
    const failures = new Map<string, { count: number; first: string }>();
    for (const { output } of measured) {
      if (output.success) continue;
      const cause = output.failureCause ?? 'other';
      const seen = failures.get(cause) ?? { count: 0, first: output.error.split('\n')[0]!.slice(0, 80) };
      seen.count += 1;
      failures.set(cause, seen);
    }
    const row: Row = {
      point,
      requests: measured.length,
      errors: [...failures.values()].reduce((sum, { count }) => sum + count, 0),
      errorCauses: [...failures].map(([cause, { count, first }]) => `${count} ${cause}: "${first}"`).join(', '),
      eventsPerS: events / options.seconds,
      accuracy: point.api === 'generate' ? compareWithTruth(measured, truth, offsetMs) : null,
      lateness: serverLateness(truth, t0, t1),
      cpuUsPerEvent: ((atT1.cpuSeconds - atT0.cpuSeconds - canaryCpu.userSeconds - canaryCpu.systemSeconds) * 1e6) / events,
      systemCpuUsPerEvent: ((atT1.systemCpuSeconds - atT0.systemCpuSeconds - canaryCpu.systemSeconds) * 1e6) / events,
      verdict:
        judgeClient(samples, requestBoundsOf(measured.map(({ output }) => output))).line +
        (scrapeLog === null ? '' : `; /metrics read ${scrapeLog.readings.length} times (${scrapeLog.failed} failed) every ${options.scrapeMetricsS} s`),
      idleLoop,
      windowSeconds: options.seconds,
      clientRssMb: atT1.clientRssMb,
      simRssMb: atT1.simRssMb,
      loadAverage,
    };
    return row;
  });
}

/** How late the sim wrote the chunks of the requests that arrived in the window [t0, t1) (run clock). */
function serverLateness(truth: Record<string, TruthRecord>, t0: number, t1: number): { p50: number; p99: number } {
  const offsetMs = threadClockOffsetMs();
  const [t0Ms, t1Ms] = [t0, t1].map((t) => toSharedSeconds(t, offsetMs) * 1000) as [number, number];
  const lateness: number[] = [];
  for (const record of Object.values(truth)) {
    if (record.arrivalMs < t0Ms || record.arrivalMs >= t1Ms) continue;
    for (let i = 0; i < record.actualMs.length; i++) lateness.push(record.actualMs[i]! - record.scheduledMs[i]!);
  }
  return { p50: percentile(lateness, 50), p99: percentile(lateness, 99) };
}

/** A row of another reader of the same streams: the bare-socket floor, or the Python client. */
interface ReaderRow {
  kind: 'floor' | 'python';
  reader: string;
  point: Point;
  /** Against the server's truth, where the reader keeps timings (the Python client on native streams). */
  accuracy: Accuracy | null;
  eventsPerS: number;
  cpuUsPerEvent: number;
  systemCpuUsPerEvent: number;
  latenessP99: number;
  loadAverage: number;
}

/**
 * The floor under any Node client's CPU per event: the same OpenAI completions streams read by a
 * bare `net.Socket` (one preallocated read buffer) that only counts `data: ` lines and sends the
 * next request when a chunked response ends. No HTTP or SSE parsing, no timestamps, no records:
 * what is left is the kernel's socket reads, the ACKs they send and epoll, plus libuv's and Node's
 * read callback. servebench's own cost is its row minus this one.
 */
async function measureFloor(point: Point, options: Options): Promise<ReaderRow> {
  const loadAverage = loadavg()[0]!;
  return withSim(point, options, async (sim) => {
    const { hostname, port } = new URL(sim.url);
    const body = JSON.stringify({ model: MODEL, prompt: 'Tell me a story.', max_tokens: point.tokens, stream: true, temperature: 0, ignore_eos: true });
    const request =
      `POST ${PATH.completions} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const readBuffer = Buffer.allocUnsafe(64 * 1024);
    const lastChunk = Buffer.from('0\r\n\r\n');
    let events = 0;
    const sockets: Socket[] = [];
    const { requestSeconds, t0, t1 } = measuredWindow(point, options);
    for (let index = 0; index < point.streams; index++) {
      setTimeout(() => {
        const socket = connect({
          host: hostname,
          port: Number(port),
          onread: {
            buffer: readBuffer,
            callback: (length) => {
              for (let at = readBuffer.indexOf('data: '); at !== -1 && at < length; at = readBuffer.indexOf('data: ', at + 6)) events++;
              // Only bytes before `length` are this read's: the rest of the shared buffer is stale.
              const tail = length - lastChunk.length;
              const ended = tail >= 0 && readBuffer.indexOf(lastChunk, tail) === tail;
              if (ended && nowSeconds() < t1) socket.write(request);
              return true;
            },
          },
        });
        socket.setNoDelay(true);
        socket.on('error', () => {});
        socket.write(request);
        sockets.push(socket);
      }, (index / point.streams) * requestSeconds * 1000);
    }
    // Opened at T0: the events counted so far and the reader's loop under the same scheduling as the client's.
    const window: { eventsAtT0: number; health: LoopHealthMonitor | null } = { eventsAtT0: 0, health: null };
    const [atT0, atT1] = await Promise.all([
      snapshotAt(t0, sim.child.pid!, () => {
        window.eventsAtT0 = events;
        window.health = startThreadHealthMonitor({ realtime: clientIsRealtime(options) });
      }),
      snapshotAt(t1, sim.child.pid!),
    ]);
    const measuredEvents = events - window.eventsAtT0;
    window.health?.stop();
    sockets.forEach((socket) => socket.destroy());
    return {
      kind: 'floor',
      reader: 'bare net.Socket reader (floor)',
      point,
      accuracy: null,
      eventsPerS: measuredEvents / options.seconds,
      cpuUsPerEvent: ((atT1.cpuSeconds - atT0.cpuSeconds) * 1e6) / measuredEvents,
      systemCpuUsPerEvent: ((atT1.systemCpuSeconds - atT0.systemCpuSeconds) * 1e6) / measuredEvents,
      latenessP99: serverLateness(await fetchTruth(sim.url), t0, t1).p99,
      loadAverage,
    };
  });
}

/** One request the Python client sent in the window: times on the shared clock (s). */
interface PythonTimings {
  rid: string;
  start: number;
  ttft: number;
  itl: number[];
  events: number;
}

/** What bench/python-client-baseline.py prints when its window closes. */
interface PythonReport {
  events: number;
  window_s: number;
  cpu_s: number;
  system_cpu_s: number;
  requests: number;
  errors: number;
  python: string;
  aiohttp: string;
  measured: PythonTimings[];
}

/** A Python request's timings as a RequestOutput, its start already on the shared clock. */
function pythonOutput(timings: PythonTimings): RequestOutput {
  return {
    generatedText: '',
    success: true,
    latency: timings.ttft + timings.itl.reduce((sum, gap) => sum + gap, 0),
    ttft: timings.ttft,
    itl: timings.itl,
    textChunks: [],
    promptLen: 0,
    error: '',
    outputLen: timings.itl.length + 1,
    startTime: timings.start,
    queueTime: 0,
    failureCause: null,
  };
}

/**
 * The same streams read by bench_serving's way of reading them (bench/python-client-baseline.py:
 * aiohttp, a session per request, line iteration, json.loads, perf_counter), on the window the
 * servebench rows use, its own CPU from getrusage. It runs at the script's nice value and normal
 * scheduling policy, as bench_serving would.
 */
async function measurePython(point: Point, options: Options, python: string): Promise<ReaderRow> {
  const loadAverage = loadavg()[0]!;
  return withSim(point, options, async (sim) => {
    const { requestSeconds, t0, t1 } = measuredWindow(point, options);
    const offsetMs = threadClockOffsetMs();
    const [t0Ms, t1Ms] = [t0, t1].map((t) => toSharedSeconds(t, offsetMs) * 1000) as [number, number];
    const args = [PYTHON_CLIENT, sim.url + PATH[point.api], point.api, String(point.streams), String(point.tokens), String(t0Ms), String(t1Ms), String(requestSeconds)];
    const report = await new Promise<PythonReport>((resolve, reject) => {
      execFile(python, args, { maxBuffer: 512 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${python} ${args[0]} failed: ${stderr.trim().split('\n').pop() ?? error.message}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as PythonReport);
      });
    });
    const truth = await fetchTruth(sim.url);
    const measured = report.measured.map((timings) => ({ rid: timings.rid, output: pythonOutput(timings) }));
    return {
      kind: 'python',
      reader: `Python, bench_serving's way (CPython ${report.python}, aiohttp ${report.aiohttp}; ${report.errors}/${report.requests} failed)`,
      point,
      eventsPerS: report.events / report.window_s,
      cpuUsPerEvent: (report.cpu_s * 1e6) / report.events,
      systemCpuUsPerEvent: (report.system_cpu_s * 1e6) / report.events,
      latenessP99: serverLateness(truth, t0, t1).p99,
      // Its times are on the shared clock already: no offset to add.
      accuracy: point.api === 'generate' ? compareWithTruth(measured, truth, 0) : null,
      loadAverage,
    };
  });
}

/**
 * The client's figures (as `servebench bench` computes them) next to the server's truth for the
 * same requests. TTFT's truth is first write − send on the shared clock: the time a perfect
 * client would have measured, connection and request transfer included.
 */
function compareWithTruth(
  measured: ReadonlyArray<{ rid: string; output: RequestOutput }>,
  truth: Record<string, TruthRecord>,
  offsetMs: number,
): Accuracy {
  const outputs: RequestOutput[] = [];
  const truthItl: number[] = [];
  const truthTtft: number[] = [];
  const serverTtft: number[] = [];
  for (const { rid, output } of measured) {
    const record = truth[rid];
    if (!output.success || record === undefined) continue;
    outputs.push(output);
    truthTtft.push(record.actualMs[0]! - toSharedSeconds(output.startTime, offsetMs) * 1000);
    serverTtft.push(record.actualMs[0]! - record.arrivalMs);
    for (let i = 1; i < record.actualMs.length; i++) truthItl.push(record.actualMs[i]! - record.actualMs[i - 1]!);
  }
  const metrics = calculateMetrics({ outputs, durationS: 1, backend: 'sglang', acceptLength: null, retokenizedOutputLens: outputs.map(() => 0) });
  return {
    client: { meanItl: metrics.meanItlMs, medianItl: metrics.medianItlMs, p99Itl: metrics.p99ItlMs, meanTtft: metrics.meanTtftMs },
    truth: { meanItl: mean(truthItl), medianItl: median(truthItl), p99Itl: percentile(truthItl, 99), meanTtft: mean(truthTtft) },
    serverTtft: mean(serverTtft),
  };
}

const pct = (client: number, truth: number): string => `${(((client - truth) / truth) * 100).toFixed(2)}%`;
const f = (value: number, digits = 2): string => value.toFixed(digits);

/** The mean, median and p99 ITL and mean TTFT cells of a table row: client / truth (error). */
function accuracyCells(a: Accuracy): string {
  return (
    `${f(a.client.meanItl, 3)} / ${f(a.truth.meanItl, 3)} (${pct(a.client.meanItl, a.truth.meanItl)}) | ` +
    `${f(a.client.medianItl, 3)} / ${f(a.truth.medianItl, 3)} (${pct(a.client.medianItl, a.truth.medianItl)}) | ` +
    `${f(a.client.p99Itl)} / ${f(a.truth.p99Itl)} (${f(a.client.p99Itl - a.truth.p99Itl)} ms) | ` +
    `${f(a.client.meanTtft)} / ${f(a.truth.meanTtft)} (${f(a.client.meanTtft - a.truth.meanTtft)} ms)`
  );
}

const ACCURACY_HEADER = 'mean ITL client / truth (err) | median ITL client / truth (err) | p99 ITL client / truth (diff) | mean TTFT client / truth (diff)';

function printAccuracy(rows: Row[]): void {
  console.log('');
  console.log(
    `| streams | truth ITL | writes | workers | events/s | ${ACCURACY_HEADER} ` +
      '| server arrival→first write | server lateness p50 / p99 | client CPU µs/event | errors | RSS at end client / sim MB | load avg |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const a = r.accuracy!;
    console.log(
      `| ${r.point.streams} | ${r.point.itlMs} ms | ${r.point.emission} | ${r.point.workers} | ${Math.round(r.eventsPerS)} | ${accuracyCells(a)} | ` +
        `${f(a.serverTtft)} ms | ${f(r.lateness.p50)} / ${f(r.lateness.p99)} ms | ${f(r.cpuUsPerEvent)} | ` +
        `${r.errors}/${r.requests}${r.errors > 0 ? ` (${r.errorCauses})` : ''} | ${Math.round(r.clientRssMb)} / ${Math.round(r.simRssMb)} | ${f(r.loadAverage, 1)} |`,
    );
  }
  console.log('');
  for (const r of rows) {
    console.log(
      `${r.point.streams} streams, ${r.point.emission} writes, ${r.point.workers} worker(s): ${r.verdict}; ` +
        `an idle thread beside it saw p99 ${f(r.idleLoop.p99)} ms, max ${f(r.idleLoop.max, 1)} ms` +
        (r.idleLoop.cpu === null ? '' : ` and used ${f(((r.idleLoop.cpu.userSeconds + r.idleLoop.cpu.systemSeconds) / r.windowSeconds) * 100, 1)}% of a core (not counted as the client's)`),
    );
  }
}

const FORMAT: Record<Api, string> = { generate: 'SGLang native (cumulative text)', completions: 'OpenAI completions (incremental)' };

function printCpu(rows: Row[], readers: ReaderRow[]): void {
  console.log('');
  console.log(
    '| client | stream format | writes | streams x ITL | tokens/request | workers | events/s | client CPU-s per 1M events (of which kernel) | server lateness p99 | load avg |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const all = [
    ...rows.map((r) => ({ reader: 'servebench', ...r, latenessP99: r.lateness.p99 })),
    ...readers,
  ];
  for (const r of all) {
    const { point } = r;
    console.log(
      `| ${r.reader} | ${FORMAT[point.api]} | ${point.emission} | ${point.streams} x ${point.itlMs} ms | ${point.tokens} | ${point.workers} | ${Math.round(r.eventsPerS)} | ` +
        `${f(r.cpuUsPerEvent)} (${f(r.systemCpuUsPerEvent)}) | ${f(r.latenessP99)} ms | ${f(r.loadAverage, 1)} |`,
    );
  }
  const pythonRows = readers.filter((r) => r.kind === 'python');
  if (pythonRows.length > 0) console.log('');
  const samePoint = (a: Point, b: Point): boolean =>
    a.api === b.api && a.emission === b.emission && a.streams === b.streams && a.itlMs === b.itlMs;
  for (const python of pythonRows) {
    const ours = rows.find((r) => samePoint(r.point, python.point));
    if (ours === undefined) continue;
    const { point } = python;
    console.log(
      `${FORMAT[point.api]}, ${point.streams} x ${point.itlMs} ms, ${point.emission} writes: servebench ${f(ours.cpuUsPerEvent)} µs per event at ` +
        `${Math.round(ours.eventsPerS)} events/s, Python ${f(python.cpuUsPerEvent)} µs at ${Math.round(python.eventsPerS)} events/s: ` +
        `${f(ours.cpuUsPerEvent / python.cpuUsPerEvent)} of Python's`,
    );
  }
  // What each client's timing was worth on the same streams: the CPU rows' native streams against the server's truth.
  const timed = all.filter((r) => r.accuracy !== null);
  if (timed.length === 0) return;
  console.log('');
  console.log(`| client | writes | streams x ITL | events/s | ${ACCURACY_HEADER} |`);
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of timed) {
    console.log(`| ${r.reader} | ${r.point.emission} | ${r.point.streams} x ${r.point.itlMs} ms | ${Math.round(r.eventsPerS)} | ${accuracyCells(r.accuracy!)} |`);
  }
}

/** Nice value asked for the client and the sim (inherited by its threads and the forked sim). */
const RAISED_PRIORITY = -10;

/**
 * On a shared box other tenants' work would starve the client and the sim and be counted as
 * their error. Raise this process's priority before any worker or the sim starts (both inherit
 * it); without the privilege the run goes on at normal priority and says so.
 */
function raisePriority(): string {
  try {
    setPriority(RAISED_PRIORITY);
    return `client and sim at nice ${RAISED_PRIORITY}`;
  } catch {
    return 'normal priority (raising it needs privileges)';
  }
}

async function main(options: Options): Promise<void> {
  const priority = raisePriority();
  if (options.burst !== null) {
    console.log(
      `client accuracy in bursts vs a truth-mode sim: truth TTFT ${options.ttftMs} ms, ${options.tokens} tokens per request, ` +
        `${options.burst.eventsPerS} events/s offered; machine: ${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ` +
        `${priority}; SCHED_FIFO asked for: ${REALTIME_LOOPS[options.realtime]}`,
    );
    await runBursts(options.burst, options);
    return;
  }
  console.log(
    `client accuracy vs a truth-mode sim: truth TTFT ${options.ttftMs} ms, ${options.tokens} tokens per request, ` +
      `${options.seconds} s measured window per point; machine: ${availableParallelism()} cores; ${priority}; ` +
      `SCHED_FIFO asked for: ${REALTIME_LOOPS[options.realtime]}`,
  );
  const rows: Row[] = [];
  for (const emission of options.emissions) {
    for (const workers of options.workers) {
      for (const { streams, itlMs } of options.points) {
        const point: Point = { streams, itlMs, emission, workers, api: 'generate', tokens: options.tokens };
        rows.push(await measurePoint(point, options));
        process.stderr.write(`done: ${streams} streams x ${itlMs} ms, ${emission} writes, ${workers} worker(s)\n`);
      }
    }
  }
  if (rows.length > 0) printAccuracy(rows);
  if (!options.cpuRows) return;
  // CPU per event at a load the server can offer, both stream formats.
  const python = options.python === 'off' ? null : findPython(options.python === 'auto' ? PYTHON_CANDIDATES : [options.python]);
  if (options.python !== 'off' && python === null) {
    console.log(
      `Python rows skipped: no interpreter with aiohttp among ${options.python === 'auto' ? PYTHON_CANDIDATES.join(', ') : options.python} ` +
        '(apt-get install python3-aiohttp, or name one with --python PATH)',
    );
  }
  const cpuRows: Row[] = [];
  const readers: ReaderRow[] = [];
  for (const emission of options.emissions) {
    for (const { streams, itlMs } of options.cpuPoints) {
      const point = (api: Api): Point => ({ streams, itlMs, emission, workers: 1, api, tokens: options.cpuTokens });
      for (const api of ['generate', 'completions'] as const) {
        cpuRows.push(await measurePoint(point(api), options));
        if (python !== null) readers.push(await measurePython(point(api), options, python));
      }
      readers.push(await measureFloor(point('completions'), options));
    }
  }
  printCpu(cpuRows, readers);
}

await main(parseOptions(process.argv.slice(2)));
