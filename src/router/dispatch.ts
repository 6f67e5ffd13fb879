/**
 * One attempt at a request: to one worker (plain mode), or to a prefill and a decode worker at once
 * (PD mode, PR L646-960). An attempt ends at an Outcome the router has not written yet, so the
 * retry loop can still drop it and try again.
 */
import type { IncomingMessage } from 'node:http';
import { injectBootstrap, bootstrapHost } from './bootstrap.js';
import { streamErrorChunk, upstreamMessage, workerRefusal, workerUnreachable, type RouterError } from './errors.js';
import { readBody, send } from './upstream.js';
import type { Worker } from './workers.js';

export type Outcome =
  | { kind: 'error'; error: RouterError }
  /** A streamed request the decode refused: its status and the one SSE error chunk. */
  | { kind: 'stream-error'; status: number; chunk: string }
  /** A worker's answer, its body not read yet; `eventStream` forces that content type (PD streams). */
  | { kind: 'reply'; status: number; response: IncomingMessage; eventStream: boolean };

export function outcomeStatus(outcome: Outcome): number {
  return outcome.kind === 'error' ? outcome.error.status : outcome.status;
}

export interface AttemptContext {
  route: string;
  bodyText: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

function ok(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The client's body as sent, to one worker; its answer passed through as it comes. */
export async function plainAttempt(worker: Worker, context: AttemptContext): Promise<Outcome> {
  try {
    const response = await send({ url: worker.url, path: context.route, method: 'POST', headers: context.headers, body: context.bodyText, timeoutMs: context.timeoutMs, signal: context.signal });
    worker.breaker.record(response.statusCode! < 500, Date.now());
    return { kind: 'reply', status: response.statusCode!, response, eventStream: false };
  } catch (error) {
    worker.breaker.record(false, Date.now());
    return { kind: 'error', error: workerUnreachable('worker', worker.url, reason(error)) };
  }
}

export interface PdRequest {
  /** Rooms for a batch of this many requests; null for one. */
  batch: number | null;
  stream: boolean;
}

/**
 * Both halves at once with the same body (bootstrap fields injected, fresh rooms): prefill's
 * headers are awaited first, and a failed prefill cancels the decode; prefill's body is read to its
 * end before anything reaches the client; decode's answer is the client's.
 */
export async function pdAttempt(prefill: Worker, decode: Worker, request: PdRequest, context: AttemptContext): Promise<Outcome> {
  const body = injectBootstrap(context.bodyText, { host: bootstrapHost(prefill.url), port: prefill.bootstrapPort }, request.batch);
  const decodeAbort = new AbortController();
  context.signal.addEventListener('abort', () => decodeAbort.abort(), { once: true });
  const post = (worker: Worker, signal: AbortSignal): Promise<IncomingMessage> =>
    send({ url: worker.url, path: context.route, method: 'POST', headers: context.headers, body, timeoutMs: context.timeoutMs, signal });
  const prefillSent = post(prefill, context.signal);
  const decodeSent = post(decode, decodeAbort.signal);
  // Awaited only after prefill's headers; a rejection before then must not go unhandled.
  decodeSent.catch(() => undefined);
  const now = (): number => Date.now();

  let prefillResponse: IncomingMessage;
  try {
    prefillResponse = await prefillSent;
  } catch (error) {
    decodeAbort.abort();
    prefill.breaker.record(false, now());
    return { kind: 'error', error: workerUnreachable('prefill', prefill.url, reason(error)) };
  }
  if (!ok(prefillResponse.statusCode)) {
    decodeAbort.abort();
    const text = await readBody(prefillResponse).catch(reason);
    prefill.breaker.record(prefillResponse.statusCode! < 500, now());
    return { kind: 'error', error: workerRefusal('prefill', prefillResponse.statusCode!, text) };
  }
  prefill.breaker.record(true, now());

  let decodeResponse: IncomingMessage;
  try {
    decodeResponse = await decodeSent;
  } catch (error) {
    prefillResponse.destroy();
    decode.breaker.record(false, now());
    return { kind: 'error', error: workerUnreachable('decode', decode.url, reason(error)) };
  }
  try {
    await readBody(prefillResponse);
  } catch (error) {
    decodeResponse.destroy();
    return { kind: 'error', error: workerUnreachable('prefill', prefill.url, reason(error)) };
  }
  const status = decodeResponse.statusCode!;
  decode.breaker.record(status < 500, now());
  if (ok(status)) return { kind: 'reply', status, response: decodeResponse, eventStream: request.stream };
  const text = await readBody(decodeResponse).catch(reason);
  if (request.stream) return { kind: 'stream-error', status, chunk: streamErrorChunk(status, text) };
  return { kind: 'error', error: workerRefusal('decode', status, upstreamMessage(text)) };
}
