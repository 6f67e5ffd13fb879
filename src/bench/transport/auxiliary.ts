/**
 * The auxiliary calls of spec §8 (model discovery, cache flush, profiler, server info), on the same
 * pool and HTTP client as the generation requests. They are neither watched for stalls nor
 * aborted by Ctrl-C: the runner still calls some of them after an interrupt.
 */
import { BodyBuffer } from './body-buffer.js';
import { nowSeconds } from './clock.js';
import type { HttpPool } from './http-pool.js';
import { roundTrip, toWire, type HttpRequest } from './round-trip.js';

interface TextResponse {
  status: number;
  reason: string;
  text: string;
}

/**
 * The whole response as text; network errors (and a URL or header the client cannot send) throw,
 * and so does a body past `maxBytes`. `supervised`: the pool's stream-idle timeout applies (a
 * server that stops answering fails it).
 */
/** No answer of an auxiliary call (server info, model list, profiler, flush) is near this; a server sending more is cut off. */
const AUXILIARY_MAX_BYTES = 64 * 1024 * 1024;

async function requestText(pool: HttpPool, request: HttpRequest, supervised = false, maxBytes = AUXILIARY_MAX_BYTES): Promise<TextResponse> {
  const response: TextResponse = { status: 0, reason: '', text: '' };
  const body = new BodyBuffer();
  let bytes = 0;
  const { error } = await roundTrip(
    pool,
    toWire(pool, request),
    {
      onSent() {},
      onHead(status, reason) {
        response.status = status;
        response.reason = reason;
      },
      onBody: (chunk, start, end) => {
        bytes += end - start;
        // Thrown from the handler, this fails the transfer: the rest is never read.
        if (bytes > maxBytes) throw new Error(`the response passed ${maxBytes} bytes`);
        body.push(chunk, start, end);
      },
      onComplete() {
        response.text = body.text();
      },
    },
    { dueAt: nowSeconds(), supervised, startAt: 'write' },
  );
  if (error !== null) throw error;
  return response;
}

/**
 * Status and text of a GET under the pool's stream-idle timeout (the `/metrics` scrape's own pool),
 * failed once the body passes `maxBytes`. Network errors throw.
 */
export async function getSupervisedText(pool: HttpPool, url: string, headers: Record<string, string>, maxBytes: number): Promise<{ status: number; text: string }> {
  const { status, text } = await requestText(pool, { method: 'GET', url, headers }, true, maxBytes);
  return { status, text };
}

/** Status and parsed JSON body (null when the body is not JSON) of a GET. Network errors throw. */
export async function getJson(
  pool: HttpPool,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const response = await requestText(pool, { method: 'GET', url, headers });
  let body: unknown = null;
  try {
    body = JSON.parse(response.text);
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/**
 * `GET <base>/get_server_info` parsed with `parse` (JSON.parse, or a float-preserving parser for
 * the JSONL record): null when the status is not 200, the body does not parse, or the server
 * cannot be reached (Q23 F).
 */
export async function fetchServerInfo<T = unknown>(
  pool: HttpPool,
  baseUrl: string,
  headers: Record<string, string>,
  parse: (text: string) => T = JSON.parse,
): Promise<T | null> {
  try {
    const response = await requestText(pool, { method: 'GET', url: `${baseUrl}/get_server_info`, headers });
    return response.status === 200 ? parse(response.text) : null;
  } catch {
    return null;
  }
}

/** A router's workers by the role its `GET /workers` gives them (SGLang's router: `worker_type`). */
export const ROUTER_WORKER_ROLES = ['prefill', 'decode', 'regular'] as const;
export type RouterWorkersInfo<T> = Record<(typeof ROUTER_WORKER_ROLES)[number], T[]>;

/** The workers a router's `GET /workers` lists: each one's URL and role; none when the answer is not that list. */
function listedWorkers(text: string): Array<{ url: string; role: (typeof ROUTER_WORKER_ROLES)[number] }> {
  let listed: unknown;
  try {
    listed = (JSON.parse(text) as { workers?: unknown }).workers;
  } catch {
    return [];
  }
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((worker: { url?: unknown; worker_type?: unknown }) => {
    const role = ROUTER_WORKER_ROLES.find((known) => known === worker?.worker_type);
    return typeof worker?.url === 'string' && role ? [{ url: worker.url, role }] : [];
  });
}

/**
 * Whether a `/get_server_info` body may speak for one server behind a router rather than for the
 * deployment: SGLang's router answers with its own counters (`router_manager`, sglang-router 0.3
 * on), and its PD router before that passed on its first prefill worker's body, which names its
 * `disaggregation_mode`; a lone prefill or decode server serves no bench, so such a body came
 * through a router too.
 */
export function mayBeRouterAnswer(serverInfo: unknown): boolean {
  if (typeof serverInfo !== 'object' || serverInfo === null) return false;
  const { router_manager: routerManager, disaggregation_mode: role } = serverInfo as { router_manager?: unknown; disaggregation_mode?: unknown };
  return routerManager === true || role === 'prefill' || role === 'decode';
}

/**
 * Behind SGLang's router, `/get_server_info` is not the deployment's (see mayBeRouterAnswer):
 * each worker's own body, read at the URL the router's `GET /workers` lists, by role. Null when
 * `serverInfo` cannot be a router's, the server lists no workers (no router after all), or no
 * worker answered (a worker the client cannot reach is left out).
 */
export async function fetchRouterWorkersInfo<T>(
  pool: HttpPool,
  baseUrl: string,
  headers: Record<string, string>,
  serverInfo: unknown,
  parse: (text: string) => T,
): Promise<RouterWorkersInfo<T> | null> {
  if (!mayBeRouterAnswer(serverInfo)) return null;
  let workers: ReturnType<typeof listedWorkers>;
  try {
    const response = await requestText(pool, { method: 'GET', url: `${baseUrl}/workers`, headers });
    workers = response.status === 200 ? listedWorkers(response.text) : [];
  } catch {
    return null;
  }
  const bodies = await Promise.all(workers.map(({ url }) => fetchServerInfo(pool, url.replace(/\/$/, ''), headers, parse)));
  const byRole: RouterWorkersInfo<T> = { prefill: [], decode: [], regular: [] };
  workers.forEach(({ role }, i) => {
    const body = bodies[i];
    if (body !== null && body !== undefined) byRole[role].push(body);
  });
  return ROUTER_WORKER_ROLES.some((role) => byRole[role].length > 0) ? byRole : null;
}

/** Result of a POST whose body is not needed: success on 200, else the reference's error text. */
export interface PostOutcome {
  ok: boolean;
  error: string;
}

/** POSTs `body` (JSON) or nothing; never throws. */
export async function postForStatus(
  pool: HttpPool,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<PostOutcome> {
  try {
    const response = await requestText(pool, {
      method: 'POST',
      url,
      headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 200) return { ok: true, error: '' };
    return { ok: false, error: `${response.reason}: ${response.text}` };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
