/**
 * The small I/O helpers every route uses: read a JSON body under a size limit, send JSON, send an
 * error, stream server-sent events.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from '../../core/http-error.js';
import type { BodyLimit } from './body-limit.js';
import { errorBody, type ErrorShape } from './error-body.js';

/** The bytes of each request's body read into memory (a body refused from its declared length has none). */
const bodyBytesRead = new WeakMap<IncomingMessage, number>();

/** How many bytes of `req`'s body were read into memory. */
export function bodyBytes(req: IncomingMessage): number {
  return bodyBytesRead.get(req) ?? 0;
}

/**
 * Reads the whole body; rejects with 413 past `limit.bytes`: at once from a declared length, else
 * once the chunks read pass it. The rest of a refused body is read past, not held: the connection
 * stays usable, and a client still sending gets the answer (closing instead made 19 of 20
 * node:http clients fail with EPIPE while they wrote a 30 MB body).
 */
export function readBody(req: IncomingMessage, limit: BodyLimit): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit.bytes) {
    req.resume();
    closeIfStillSending(req);
    return Promise.reject(tooLarge(limit, `${declared} bytes`));
  }
  // A declared length is read into one buffer of its size, each read copied and let go at once: a
  // big body then never holds hundreds of 64 KB reads in the allocator's heap, whose freed pages
  // stayed with the process (30 MB prompts grew the sim by ~4 MB each before).
  const whole = Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafeSlow(declared) : null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      if (whole !== null) {
        // Node's HTTP parser ends the body at its declared length, so every read fits.
        size += chunk.copy(whole, size);
        return;
      }
      size += chunk.length;
      if (size > limit.bytes) {
        over = true;
        chunks.length = 0;
        closeIfStillSending(req);
        bodyBytesRead.set(req, size);
        reject(tooLarge(limit, `more than ${limit.bytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      bodyBytesRead.set(req, size);
      if (whole !== null) resolve(whole.subarray(0, size));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

/** How long the rest of a refused body may take to arrive: a 1 GB body takes ~1 s on loopback. */
export const REFUSED_BODY_DRAIN_MS = 30_000;

/**
 * Closes the connection of a refused request whose body is still arriving after `ms`: the rest is
 * read past, not held, but a client trickling a huge declared length would keep the socket forever.
 */
export function closeIfStillSending(req: Pick<IncomingMessage, 'once' | 'complete' | 'socket'>, ms = REFUSED_BODY_DRAIN_MS): void {
  if (req.complete) return;
  const timer = setTimeout(() => req.socket.destroy(), ms);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
}

function tooLarge(limit: BodyLimit, size: string): HttpError {
  return new HttpError(413, `The request body (${size}) exceeds the sim's limit of ${limit.bytes} bytes for this route: ${limit.fix}.`);
}

/** Reads and parses a JSON object body; 400 for malformed JSON or a non-object, 413 past `limit`. */
export async function readJsonObject(req: IncomingMessage, limit: BodyLimit): Promise<Record<string, unknown>> {
  return (await readJsonObjectText(req, limit)).body;
}

/** As readJsonObject, with the body's text too, for the values JSON.parse cannot keep exact (see raw-json-fields.ts). */
export async function readJsonObjectText(req: IncomingMessage, limit: BodyLimit): Promise<{ body: Record<string, unknown>; text: string }> {
  const text = (await readBody(req, limit)).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `malformed JSON body: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'the request body must be a JSON object');
  }
  return { body: parsed as Record<string, unknown>, text };
}

/** Writes a complete JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes a response without a body, as Starlette's bare `Response(status_code=...)` does (no content type). */
export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
}

/** Writes a plain-text response. */
export function sendText(res: ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Answers a failed request in the route's error shape; anything that is not an HttpError is a 500. */
export function sendError(res: ServerResponse, error: unknown, shape: ErrorShape): void {
  const httpError =
    error instanceof HttpError ? error : new HttpError(500, `internal sim error: ${(error as Error)?.message ?? String(error)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, httpError.status, errorBody(httpError, shape));
}

/**
 * A server-sent-events response whose chunks go straight to its socket, framed as HTTP/1.1 chunks
 * here. `res.write` costs twice the CPU per chunk (measured, 200 streams: 4.6 against 2.6 µs): it
 * measures the string for the chunk header, corks the socket until the next tick and writes four
 * pieces with `writev`; at the 80k chunks/s of a 200-request decode that decides whether the sim
 * keeps its schedule. Headers leave when the stream opens, while the request waits for prefill, so
 * a first chunk costs what any other does.
 */
export class EventStream {
  private readonly socket: Socket;
  /** False for an HTTP/1.0 client: no chunked encoding, the body ends with the connection. */
  private readonly chunked: boolean;

  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    // Small chunk writes must leave at once: latency, not throughput, is what the sim is judged on.
    res.socket!.setNoDelay(true);
    res.flushHeaders();
    this.socket = res.socket as Socket;
    this.chunked = res.chunkedEncoding;
  }

  /** Writes one chunk now (one `write` system call). */
  write(text: string): void {
    this.socket.write(this.chunked ? `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n` : text);
  }

  /** Writes the last chunk and ends the response (the terminating chunk goes in the same write). */
  end(text: string): void {
    this.res.end(text);
  }
}
