/**
 * The router's HTTP server (server.rs): its own endpoints, and the inference routes through the
 * retry loop over attempts (dispatch.ts) on workers the policies choose among the available ones.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServebenchError } from '../core/errors.js';
import { batchSize } from './bootstrap.js';
import type { RouterConfig } from './config.js';
import { outcomeStatus, pdAttempt, plainAttempt, type AttemptContext, type Outcome } from './dispatch.js';
import { ERROR_CODE_HEADER, errorBody, type RouterError } from './errors.js';
import { answerHeaders, forwardedHeaders } from './headers.js';
import { RouterMetrics } from './metrics.js';
import { CacheAwarePolicy, createPolicy, type Policy, type Random } from './policies.js';
import { backoffMs, isRetryableStatus } from './retry.js';
import { routingText } from './routing-text.js';
import { HealthChecker, Worker } from './workers.js';
import { getText } from './upstream.js';

const INFERENCE_ROUTES = new Set(['/generate', '/v1/completions', '/v1/chat/completions']);
const PD_UNSUPPORTED: Record<string, string> = { '/v1/embeddings': 'pd_unsupported_embeddings', '/v1/classify': 'pd_unsupported_classify' };

export interface RouterOptions {
  /** The policies' and the backoff jitter's draws; Math.random unless a test seeds it. */
  random?: Random;
  /** Told of events worth a log line (never a header or a key). */
  log?: (line: string) => void;
}

export interface RouterHandle {
  url: string;
  workers: readonly Worker[];
  close(): Promise<void>;
}

/** A request the router ends with one of its own error answers. */
export class RequestFailure extends ServebenchError {
  readonly code = 'E_ROUTER_REQUEST';
  constructor(readonly error: RouterError) {
    super(error.message);
  }
}

function sendError(res: ServerResponse, error: RouterError): void {
  res.writeHead(error.status, { 'content-type': 'application/json', [ERROR_CODE_HEADER]: error.code }).end(errorBody(error));
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function readRequest(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startRouter(config: RouterConfig, options: RouterOptions = {}): Promise<RouterHandle> {
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => undefined);
  const workers = config.workers.map((spec) => new Worker(spec, config.circuit));
  const pool = (role: Worker['role']): Worker[] => workers.filter((worker) => worker.role === role);
  const policies = new Map<Worker['role'], Policy>(
    config.pdDisaggregation
      ? [['prefill', createPolicy(config.prefillPolicy, { ...config.cacheAware, random })], ['decode', createPolicy(config.decodePolicy, { ...config.cacheAware, random })]]
      : [['regular', createPolicy(config.policy, { ...config.cacheAware, random })]],
  );
  const metrics = new RouterMetrics();
  const workerHeaders: Record<string, string> = config.apiKey === null ? {} : { authorization: `Bearer ${config.apiKey}` };
  const checker = new HealthChecker(workers, {
    health: config.health,
    headers: workerHeaders,
    onStartupFailure: (worker) => log(`worker ${worker.url} did not answer ${config.health.endpoint} within --worker-startup-timeout-secs; it takes no requests`),
  });
  const eviction = setInterval(() => {
    for (const policy of policies.values()) if (policy instanceof CacheAwarePolicy) policy.tree.evict(config.maxTreeSize);
  }, config.evictionIntervalMs);
  eviction.unref();

  function choose(role: Worker['role'], text: string): Worker {
    const now = Date.now();
    const candidates = pool(role).filter((worker) => worker.available(now));
    if (candidates.length === 0) {
      const which = role === 'regular' ? 'workers' : `${role} workers`;
      throw new RequestFailure({ status: 503, code: 'server_selection_failed', message: `No available servers: No ${which} available. Wait for /readiness, or check the workers' health.` });
    }
    const policy = policies.get(role)!;
    const worker = candidates[policy.select(candidates, text)]!;
    metrics.count('smg_worker_selection_total', { worker_type: role, policy: policy.name, worker: worker.url });
    return worker;
  }

  /** One attempt on newly chosen workers; their load is held until `release`. */
  async function attempt(body: Record<string, unknown>, context: AttemptContext): Promise<{ outcome: Outcome; release: () => void }> {
    const text = routingText(context.route, body);
    const chosen = config.pdDisaggregation ? [choose('prefill', text), choose('decode', text)] : [choose('regular', text)];
    for (const worker of chosen) worker.load++;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      for (const worker of chosen) worker.load--;
    };
    const request = { batch: batchSize(context.route, body), stream: body.stream === true };
    const outcome = config.pdDisaggregation ? await pdAttempt(chosen[0]!, chosen[1]!, request, context) : await plainAttempt(chosen[0]!, context);
    return { outcome, release };
  }

  async function route(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const bodyText = await readRequest(req);
    let body: unknown;
    try {
      body = JSON.parse(bodyText);
    } catch {
      body = null;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      sendError(res, { status: 400, code: 'invalid_request', message: 'the request body must be a JSON object' });
      return;
    }
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const context: AttemptContext = { route: path, bodyText, headers: forwardedHeaders(req.headers, config.apiKey), timeoutMs: config.requestTimeoutMs, signal: gone.signal };
    const streaming = (body as { stream?: unknown }).stream === true;
    metrics.count('smg_router_requests_total', { router_type: 'http', backend_type: config.pdDisaggregation ? 'pd' : 'regular', endpoint: path, streaming: String(streaming) });
    for (let tried = 1; ; tried++) {
      let result: { outcome: Outcome; release: () => void };
      try {
        result = await attempt(body as Record<string, unknown>, context);
      } catch (error) {
        if (!(error instanceof RequestFailure)) throw error;
        result = { outcome: { kind: 'error', error: error.error }, release: () => undefined };
      }
      const status = outcomeStatus(result.outcome);
      if (isRetryableStatus(status) && tried < config.retry.maxAttempts && !gone.signal.aborted) {
        if (result.outcome.kind === 'reply') result.outcome.response.destroy();
        result.release();
        metrics.count('smg_worker_retries_total', { endpoint: path });
        await sleep(backoffMs(config.retry, tried - 1, random()));
        continue;
      }
      if (isRetryableStatus(status) && config.retry.maxAttempts > 1) metrics.count('smg_worker_retries_exhausted_total', { endpoint: path });
      if (status >= 400) metrics.count('smg_router_request_errors_total', { endpoint: path, error_type: result.outcome.kind === 'error' ? result.outcome.error.code : String(status) });
      write(res, result.outcome, result.release);
      return;
    }
  }

  function write(res: ServerResponse, outcome: Outcome, release: () => void): void {
    res.on('close', release);
    if (outcome.kind === 'error') return sendError(res, outcome.error);
    if (outcome.kind === 'stream-error') {
      res.writeHead(outcome.status, { 'content-type': 'text/event-stream' }).end(outcome.chunk);
      return;
    }
    const headers = answerHeaders(outcome.response.headers);
    if (outcome.eventStream) {
      headers['content-type'] = 'text/event-stream';
      delete headers['content-length'];
    }
    res.writeHead(outcome.status, headers);
    outcome.response.on('error', () => res.destroy());
    outcome.response.pipe(res);
  }

  const prefills = (): Worker[] => pool(config.pdDisaggregation ? 'prefill' : 'regular');
  const ready = (): boolean => {
    const healthy = (role: Worker['role']): boolean => pool(role).some((worker) => worker.active && worker.healthy);
    return config.pdDisaggregation ? healthy('prefill') && healthy('decode') : healthy('regular');
  };

  async function proxyGet(res: ServerResponse, path: string): Promise<void> {
    const first = prefills().find((worker) => worker.active) ?? prefills()[0]!;
    const text = await getText(first.url, path, config.requestTimeoutMs, workerHeaders);
    if (text === null) sendError(res, { status: 503, code: 'worker_unavailable', message: `${first.url}${path} did not answer` });
    else res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://router').pathname;
    metrics.count('smg_http_requests_total', { method: req.method ?? '', path });
    res.on('finish', () => metrics.count('smg_http_responses_total', { status_code: String(res.statusCode), error_code: String(res.getHeader(ERROR_CODE_HEADER) ?? '') }));
    const open = path === '/health' || path === '/liveness' || path === '/readiness' || path === '/metrics';
    if (!open && config.apiKey !== null && req.headers.authorization !== `Bearer ${config.apiKey}`) {
      return sendError(res, { status: 401, code: 'unauthorized', message: 'missing or wrong API key: send Authorization: Bearer <the router\'s --api-key>' });
    }
    if (req.method === 'POST' && INFERENCE_ROUTES.has(path)) return route(req, res, path);
    if (req.method === 'POST' && config.pdDisaggregation && PD_UNSUPPORTED[path] !== undefined) {
      return sendError(res, { status: 400, code: PD_UNSUPPORTED[path]!, message: `${path} is not supported in PD disaggregation mode` });
    }
    const now = Date.now();
    switch (path) {
      case '/health':
      case '/liveness':
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      case '/readiness': {
        const healthy = workers.filter((worker) => worker.active && worker.healthy).length;
        return sendJson(res, ready() ? 200 : 503, { status: ready() ? 'ready' : 'not ready', healthy_workers: healthy, total_workers: workers.length });
      }
      case '/health_generate':
        return void res.writeHead(ready() ? 200 : 503, { 'content-type': 'text/plain' }).end(ready() ? 'OK' : 'No healthy workers');
      case '/server_info':
      case '/get_server_info':
        return sendJson(res, 200, { router_manager: true, routers_count: 1, workers_count: workers.length });
      case '/v1/models': {
        const ids = [...new Set(workers.filter((worker) => worker.active).map((worker) => worker.modelId))];
        if (ids.length === 0) return sendError(res, { status: 503, code: 'no_workers', message: 'no worker is registered yet; wait for /readiness' });
        return sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'local' })) });
      }
      case '/model_info':
      case '/get_model_info':
        return proxyGet(res, '/model_info');
      case '/workers':
        return sendJson(res, 200, {
          workers: workers.map((worker) => ({
            id: worker.url,
            url: worker.url,
            model_id: worker.modelId,
            worker_type: worker.role,
            is_healthy: worker.active && worker.healthy,
            load: worker.load,
            bootstrap_port: worker.bootstrapPort,
            circuit_state: worker.breaker.state(now),
          })),
          total: workers.length,
          stats: { prefill_count: pool('prefill').length, decode_count: pool('decode').length, regular_count: pool('regular').length },
        });
      case '/metrics':
        return void res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(metrics.render(workers, now));
      default:
        return sendError(res, { status: 404, code: 'not_found', message: `no route ${req.method} ${path}` });
    }
  }

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      log(`internal error on ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendError(res, { status: 500, code: 'internal_error', message: 'the router failed on this request; see its log' });
      else res.destroy();
    });
  };
  const listen = async (host: string, port: number): Promise<Server> => {
    const server = createServer(serve);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    return server;
  };
  const servers = [await listen(config.host, config.port)];
  if (config.prometheus !== null) servers.push(await listen(config.prometheus.host, config.prometheus.port));
  checker.start();
  const address = servers[0]!.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    workers,
    async close() {
      checker.stop();
      clearInterval(eviction);
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
