/**
 * `startSimServer`: parse SGLang launch flags, build the engine and the answer vocabulary, and serve
 * SGLang's native and OpenAI APIs on raw node:http (measured 3.3× cheaper than a framework).
 * Used by `servebench sim` and in-process by `servebench bench --sim "<flags>"`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UserError } from '../../core/errors.js';
import { HttpError } from '../../core/http-error.js';
import { loadTokenizer, type Tokenizer } from '../../tokenizer/index.js';
import { describeLaunch } from '../flags/launch-summary.js';
import { parseLaunchArgs, type LaunchConfig } from '../../deployment/index.js';
import { buildTokenPool, type TokenPool } from '../text/token-pool.js';
import { NO_LATENESS, type LatenessSummary } from '../truth/lateness-verdict.js';
import { TruthRecorder } from '../truth/truth-recorder.js';
import { EngineClock } from './engine-clock.js';
import { EngineDriver } from './engine-driver.js';
import { HeapCollection } from './heap-collection.js';
import { bodyBytes, sendError } from './http-io.js';
import { IMAGE_PAD_TOKEN } from './image-input.js';
import { currentThreadId, makeCurrentThreadRealtime } from '../../core/thread-scheduling.js';
import { promptBytesPerToken } from './prompt-tokens.js';
import { handleAdmin } from './route-admin.js';
import { handleGenerate } from './route-native.js';
import { handleChatCompletions, handleCompletions } from './route-openai.js';
import { benchOnlyGeneration } from './route-trt-truss.js';
import type { SimContext } from './sim-context.js';
import { ServerLog } from './server-log.js';
import { createSimEngine, resolveSimDeployment } from './sim-engine.js';
import { startPdRole } from './disaggregation/pd-role.js';
import { SimMetrics } from './sim-metrics.js';

export interface SimServerOptions {
  /** Overrides `--port` (0 picks a free port). */
  port?: number;
  /** Overrides `--host`. */
  host?: string;
  /** Print nothing at start-up. */
  quiet?: boolean;
  /** The bench dataset the run sends: speculative acceptance is the one seen on it, unless the flags name one (`--sim-dataset`). */
  dataset?: string;
  /**
   * Record writes outside truth mode too: `summary` keeps their lateness for `writeLateness()` (a
   * run's self-check, constant memory); `requests` also keeps every request's per-chunk record at
   * `GET /sim/truth`, as truth mode does (how `bench/sim-lateness.ts --sim` measures the model's schedule).
   */
  recordWrites?: 'summary' | 'requests';
  /** Run the serving thread under SCHED_FIFO where permitted, as `--sim-realtime` asks. */
  realtime?: boolean;
  /**
   * Print SGLang's server log on stdout: scheduler lines, and request lines with `--log-requests`
   * (`servebench sim` only; the embedded sim's output must stay the bench's).
   */
  logs?: boolean;
}

export interface SimServerHandle {
  url: string;
  port: number;
  /** Port of a PD prefill instance's bootstrap server; null for any other instance. */
  bootstrapPort: number | null;
  launch: LaunchConfig;
  /** Linux thread id of the thread serving (its scheduling can be inspected in /proc), null off Linux. */
  loopThreadId: number | null;
  /** Actual minus scheduled write time of the chunks written so far, in engine time; zeros unless writes are recorded. */
  writeLateness(): LatenessSummary;
  /**
   * Runs the engine `timeScale` wall seconds per engine second from now on (1: real time). Only for
   * a client that divides what it measures by the same factor (`bench --sim`), between its runs.
   */
  setTimeScale(timeScale: number): void;
  close(): Promise<void>;
}

/** Context length the truth mode assumes for a model the catalog does not know. */
const TRUTH_MODE_CONTEXT = 131072;
/** Connections waiting to be accepted: a bench opens thousands at once. */
const LISTEN_BACKLOG = 8192;

/** The model's tokenizer; a model without a bundled vocabulary falls back to Qwen's (a note says so). */
async function simTokenizer(launch: LaunchConfig, notes: string[]): Promise<Tokenizer> {
  try {
    return await loadTokenizer({ model: launch.modelPath });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    if (launch.simModel !== null) {
      try {
        return await loadTokenizer({ model: launch.simModel });
      } catch {
        // fall through to the default vocabulary
      }
    }
    notes.push(`no tokenizer for '${launch.modelPath}': the sim writes its answers with the Qwen vocabulary`);
    return loadTokenizer({ model: 'qwen3' });
  }
}

/** The answer vocabulary, read lazily in id order (the pool stops once it has its words). */
async function tokenPoolOf(tokenizer: Tokenizer): Promise<TokenPool> {
  const vocabulary = function* (): Generator<[string, number]> {
    for (let id = 0; id < tokenizer.vocabSize; id++) {
      const token = tokenizer.idToToken(id);
      if (token !== null) yield [token, id];
    }
  };
  return buildTokenPool(vocabulary(), (text) => tokenizer.encode(text, false));
}

async function route(ctx: SimContext, heap: HeapCollection, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const shape = path.startsWith('/v1/') ? 'openai' : 'native';
  try {
    const generation =
      path === '/generate' ? handleGenerate : path === '/v1/completions' ? handleCompletions : path === '/v1/chat/completions' ? handleChatCompletions : benchOnlyGeneration(path);
    if (generation !== null) {
      if (req.method !== 'POST') throw new HttpError(405, `${path} accepts POST only`);
      await generation(ctx, req, res);
      return;
    }
    if (await handleAdmin(ctx, path, req, res)) return;
    throw new HttpError(404, `no such route: ${req.method} ${path}`);
  } catch (error) {
    sendError(res, error, shape);
    heap.afterRefusal(bodyBytes(req));
  }
}

/**
 * Starts the simulated SGLang server for `argv` (SGLang launch flags plus sim flags).
 * Resolves once it listens; `close()` ends open streams and stops it.
 */
export async function startSimServer(argv: string[], options: SimServerOptions = {}): Promise<SimServerHandle> {
  const { launch, truth } = parseLaunchArgs(argv);
  if (options.port !== undefined) launch.port = options.port;
  if (options.host !== undefined) launch.host = options.host;
  launch.simDataset ??= options.dataset ?? null;
  const deployment = resolveSimDeployment(launch, truth);
  const contextLength = deployment?.contextLength ?? launch.contextLength ?? TRUTH_MODE_CONTEXT;
  const notes: string[] = [];
  const tokenizer = await simTokenizer(launch, notes);
  const pool = await tokenPoolOf(tokenizer);
  const modelName = launch.servedModelName ?? launch.modelPath;
  const clock = new EngineClock();
  const metrics = new SimMetrics(modelName);
  const recorder =
    truth !== null || options.recordWrites !== undefined ? new TruthRecorder(truth !== null || options.recordWrites === 'requests') : null;
  const log = options.logs === true ? new ServerLog(launch, deployment, clock, (line) => process.stdout.write(`${line}
`)) : null;
  const driver = new EngineDriver(createSimEngine(launch, deployment, truth, log), clock, (emission, dueMs, actualMs, writtenMs) => {
    metrics.observe(emission);
    recorder?.record(emission, dueMs, actualMs, writtenMs, clock.timeScale);
  });
  let requestIndex = 0;
  const pdInstance = await startPdRole(launch, deployment, truth !== null);
  const visionConfig = deployment?.model.vision;
  const imagePadId = tokenizer.tokenToId(IMAGE_PAD_TOKEN);
  const ctx: SimContext = {
    launch,
    deployment,
    vision: visionConfig !== undefined && imagePadId !== null ? { config: visionConfig, padId: imagePadId } : null,
    modelName,
    contextLength,
    tokenizer,
    // Read now: a local vocabulary is scanned for it (0.2–0.4 s), which must not stall a request.
    promptBytesPerToken: promptBytesPerToken(tokenizer),
    pool,
    driver,
    metrics,
    truth: recorder,
    log,
    nextRequestIndex: () => requestIndex++,
    pd: pdInstance.role,
  };

  const heap = new HeapCollection();
  const server = createServer((req, res) => void route(ctx, heap, req, res));
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new UserError(`cannot listen on ${launch.host}:${launch.port}: ${error.code ?? error.message}; pick another --port`)),
    );
    server.listen(launch.port, launch.host, LISTEN_BACKLOG, resolve);
  }).catch(async (error: unknown) => {
    await pdInstance.close();
    throw error;
  });
  if (pdInstance.role?.mode === 'prefill') notes.push(`PD prefill: bootstrap server on ${launch.host}:${pdInstance.role.bootstrapPort}`);
  if (launch.simRealtime || options.realtime === true) {
    const failure = makeCurrentThreadRealtime();
    notes.push(
      failure === null
        ? '--sim-realtime: the event-loop thread runs under SCHED_FIFO'
        : `--sim-realtime: the event-loop thread keeps normal priority: ${failure}`,
    );
  }
  const port = (server.address() as AddressInfo).port;
  const host = launch.host.includes(':') ? `[${launch.host}]` : launch.host;
  const url = `http://${host}:${port}`;
  if (!options.quiet) {
    const lines = [`servebench sim listening on ${url}`, ...describeLaunch(launch, deployment, truth, contextLength), ...notes];
    process.stdout.write(lines.join('\n') + '\n');
  }
  return {
    url,
    port,
    bootstrapPort: pdInstance.role?.mode === 'prefill' ? pdInstance.role.bootstrapPort : null,
    launch,
    loopThreadId: currentThreadId(),
    writeLateness: () => recorder?.latenessSummary() ?? NO_LATENESS,
    setTimeScale: (timeScale) => driver.setTimeScale(timeScale),
    close: () =>
      new Promise<void>((resolve) => {
        driver.stop();
        heap.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => pdInstance.close()),
  };
}
