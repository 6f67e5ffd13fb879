/**
 * bench_serving's client in virtual time: warmup (excluded), then arrivals in dataset order — all at
 * once for an infinite rate, else Poisson from the same numpy stream — behind a FIFO
 * `--max-concurrency` semaphore whose wait is excluded from the request's own timing. Each request's
 * stream is recorded the way the `sglang` backend records it (TTFT, per-chunk gaps split over the
 * chunk's tokens), so bench's `calculateMetrics` prints the same block from the outputs.
 */
import type { NumpyRandomState } from '../../core/rng.js';
import { poissonSchedule, type DatasetRow, type RequestOutput } from '../../bench/index.js';
import { TimeHeap, type Engine, type EngineStats, type TokenEmission } from '../../sim/index.js';

export interface PredictOptions {
  /** Requests per second; Infinity sends every request at once. */
  requestRate: number;
  /** `--max-concurrency`, or null for no limit. */
  maxConcurrency: number | null;
  /** The numpy stream bench_serving draws Poisson intervals from (after the dataset's own draws). */
  numpy: NumpyRandomState;
  /** `--warmup-requests` (default 1): copies of the first row, output capped at 32, run before the clock starts. */
  warmupRequests?: number;
}

export interface PredictResult {
  /** One output per row, in dataset order. */
  outputs: RequestOutput[];
  /** First send to last completion, seconds. */
  durationS: number;
  /** Accepted tokens per verify pass since the engine started (what /get_server_info reports), or null. */
  acceptLength: number | null;
  stats: EngineStats;
}

interface ClientRequest {
  id: string;
  row: DatasetRow;
  index: number;
  output: RequestOutput;
  /** Completion tokens of the last chunk seen. */
  seen: number;
  lastTokenTime: number;
}

function emptyOutput(row: DatasetRow): RequestOutput {
  return {
    generatedText: '',
    success: false,
    latency: 0,
    ttft: 0,
    itl: [],
    textChunks: [],
    promptLen: row.promptLen,
    error: '',
    outputLen: 0,
    startTime: 0,
    queueTime: 0,
    failureCause: null,
    textPromptLen: row.textPromptLen,
    visionPromptLen: row.visionPromptLen,
  };
}

/**
 * Runs `rows` through `engine` as bench_serving would and returns the per-request outputs.
 * Output lengths are the requested ones (ignore_eos, the bench default), at least 1 token.
 */
export function predictRun(engine: Engine, rows: readonly DatasetRow[], options: PredictOptions): PredictResult {
  const inbox = new TimeHeap<TokenEmission>();
  const byId = new Map<string, ClientRequest>();
  let clock = 0;

  const send = (request: ClientRequest, at: number, outputTokens: number): void => {
    request.output.startTime = at;
    request.lastTokenTime = at;
    byId.set(request.id, request);
    engine.submit({
      id: request.id,
      promptTokens: request.row.promptLen,
      outputTokens,
      finishReason: 'length',
      arrivalTime: at,
    });
  };

  /** Delivers engine emissions in time order until `done()` holds. */
  const pump = (done: () => boolean, onFinish: (request: ClientRequest, at: number) => void): void => {
    while (!done()) {
      const engineNext = engine.nextEventTime();
      const inboxNext = inbox.peekTime();
      if (inboxNext !== undefined && (engineNext === undefined || inboxNext <= engineNext)) {
        const emission = inbox.pop()!;
        clock = emission.time;
        const request = byId.get(emission.requestId)!;
        record(request, emission);
        if (emission.finished) {
          byId.delete(emission.requestId);
          onFinish(request, emission.time);
        }
      } else if (engineNext !== undefined) {
        clock = Math.max(clock, engineNext);
        for (const emission of engine.advanceTo(engineNext)) inbox.push(emission.time, emission);
      } else {
        throw new Error('predict: the engine went idle with requests still outstanding');
      }
    }
  };

  const record = (request: ClientRequest, emission: TokenEmission): void => {
    const out = request.output;
    if (request.seen === 0) {
      out.ttft = emission.time - out.startTime;
    } else {
      const gap = emission.time - request.lastTokenTime;
      const n = emission.completionTokens - request.seen;
      for (let i = 0; i < n; i++) out.itl.push(gap / n);
    }
    request.seen = emission.completionTokens;
    request.lastTokenTime = emission.time;
    out.outputLen = emission.completionTokens;
    if (emission.finished) {
      out.latency = emission.time - out.startTime;
      out.success = true;
    }
  };

  // Warmup: identical copies of the first row, concurrently, outputs discarded.
  const warmups = rows.length > 0 ? (options.warmupRequests ?? 1) : 0;
  let warmupLeft = warmups;
  for (let w = 0; w < warmups; w++) {
    const row = rows[0]!;
    send({ id: `warmup-${w}`, row, index: -1, output: emptyOutput(row), seen: 0, lastTokenTime: 0 }, 0, Math.max(1, Math.min(row.outputLen, 32)));
  }
  pump(() => warmupLeft === 0, () => warmupLeft--);

  const start = clock;
  const schedule = poissonSchedule(rows, options.requestRate, () => null, options.numpy);
  const outputs = rows.map(emptyOutput);
  const limit = options.maxConcurrency ?? Number.POSITIVE_INFINITY;
  const queue: ClientRequest[] = [];
  let inFlight = 0;
  let nextArrival = 0;
  let finished = 0;
  let lastFinish = start;

  const admit = (now: number): void => {
    while (queue.length > 0 && inFlight < limit) {
      const request = queue.shift()!;
      inFlight++;
      request.output.queueTime = now - (start + schedule[request.index]!.sendAt);
      send(request, now, Math.max(1, request.row.outputLen));
    }
  };
  const arrive = (upTo: number): void => {
    while (nextArrival < schedule.length && start + schedule[nextArrival]!.sendAt <= upTo) {
      const item = schedule[nextArrival]!;
      queue.push({ id: `req-${item.index}`, row: item.row, index: item.index, output: outputs[item.index]!, seen: 0, lastTokenTime: 0 });
      nextArrival++;
      admit(start + item.sendAt);
    }
  };

  const onFinish = (_request: ClientRequest, at: number): void => {
    finished++;
    inFlight--;
    lastFinish = Math.max(lastFinish, at);
    admit(at);
  };
  while (finished < rows.length) {
    arrive(clock);
    const pendingArrival = nextArrival < schedule.length ? start + schedule[nextArrival]!.sendAt : undefined;
    // Run the engine up to the next arrival (or to completion when every request has arrived).
    pump(
      () => finished >= rows.length || (pendingArrival !== undefined && nextEventAfter(engine, inbox) > pendingArrival),
      onFinish,
    );
    if (pendingArrival !== undefined) clock = Math.max(clock, pendingArrival);
  }

  const stats = engine.stats();
  for (const out of outputs) out.startTime -= start;
  return { outputs, durationS: lastFinish - start, acceptLength: stats.avgSpecAcceptLength, stats };
}

/** Earliest time anything happens next: an engine event or an undelivered emission. */
function nextEventAfter(engine: Engine, inbox: TimeHeap<TokenEmission>): number {
  const a = engine.nextEventTime() ?? Number.POSITIVE_INFINITY;
  const b = inbox.peekTime() ?? Number.POSITIVE_INFINITY;
  return Math.min(a, b);
}
