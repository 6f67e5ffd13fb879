/**
 * The router's HTTP client to its workers: node:http(s) on keep-alive agents, one total deadline
 * per request (--request-timeout-secs, body included, as reqwest's `.timeout`), and cancellation
 * when the client goes away. Resolves at the response's headers; the body is the caller's to read.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

const AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export interface UpstreamRequest {
  /** The worker's base URL. */
  url: string;
  path: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Aborts the request (the client disconnected, or the other half of a PD pair failed). */
  signal?: AbortSignal;
}

export function send(upstream: UpstreamRequest): Promise<IncomingMessage> {
  const target = new URL(upstream.path, `${upstream.url}/`);
  const secure = target.protocol === 'https:';
  const headers: Record<string, string> = { ...upstream.headers };
  if (upstream.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(upstream.body));
  }
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(target, { method: upstream.method, headers, agent: secure ? AGENTS.https : AGENTS.http });
    const timer = setTimeout(() => request.destroy(new Error(`no complete answer within ${upstream.timeoutMs / 1000} s (raise --request-timeout-secs)`)), upstream.timeoutMs);
    const abort = (): void => {
      request.destroy(new Error('cancelled'));
    };
    upstream.signal?.addEventListener('abort', abort, { once: true });
    request.on('close', () => {
      clearTimeout(timer);
      upstream.signal?.removeEventListener('abort', abort);
    });
    request.on('error', reject);
    request.on('response', resolve);
    request.end(upstream.body);
  });
}

/** The whole body as text. */
export async function readBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** GETs `path` of a worker and reads its body; null when it fails or answers non-2xx. */
export async function getText(url: string, path: string, timeoutMs: number, headers?: Record<string, string>): Promise<string | null> {
  try {
    const response = await send({ url, path, method: 'GET', timeoutMs, headers });
    const text = await readBody(response);
    return response.statusCode !== undefined && response.statusCode < 300 ? text : null;
  } catch {
    return null;
  }
}
