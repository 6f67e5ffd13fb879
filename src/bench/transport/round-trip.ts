/**
 * One HTTP/1.1 request and its response over the pool: take a connection, write the request in
 * one piece, feed every read to the response parser, and give the connection back when the
 * response ended cleanly on a keep-alive connection (otherwise close it).
 *
 * A request that fails on a reused connection before any response byte arrived (reset, broken
 * pipe, or the server's close) is sent once more on a new connection: the server closed an idle
 * connection as the request went out (the keep-alive race). The server may have seen the first
 * copy all the same, so the result says so and the run reports it. A connection whose response
 * announced `Connection: close` is never reused, so it is never the cause of a resend.
 */
import type { HttpConnection, ConnectionUser } from './connection.js';
import { ConnectionClosedError } from './errors.js';
import type { ActiveTransfer, HttpPool } from './http-pool.js';
import { serializeRequest } from './request-head.js';
import type { Target } from './request-head.js';
import { HttpResponseParser } from './response-parser.js';
import type { ResponseEvents } from './response-parser.js';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

/** The response as it arrives; a callback that throws fails the transfer with that error. */
export interface ResponseHandler {
  onHead(status: number, reason: string): void;
  /** De-chunked body bytes `bytes[start, end)` of the read that arrived at `now`; valid during the call only. */
  onBody(bytes: Buffer, start: number, end: number, now: number): void;
  /** The response ended; `now` is the arrival time of its last read. */
  onComplete(now: number): void;
}

export interface RoundTripOptions {
  /** Run-clock seconds the request was sent: the stall clock starts here. */
  sentAt: number;
  /** Watched for stalls and aborted by `abortAll` (generation requests); auxiliary calls are not. */
  supervised: boolean;
}

export interface RoundTripResult {
  /** Null when the response was consumed, else the error that ended the transfer. */
  error: Error | null;
  /** The request was written a second time, on a new connection (see above). */
  resent: boolean;
}

export function roundTrip(
  pool: HttpPool,
  request: HttpRequest,
  handler: ResponseHandler,
  options: RoundTripOptions,
): Promise<RoundTripResult> {
  return new Promise((resolve) => {
    let target: Target;
    let wire: string;
    try {
      target = pool.target(request.url);
      wire = serializeRequest(request.method, target, request.headers, request.body);
    } catch (error) {
      resolve({ error: error as Error, resent: false });
      return;
    }
    new Transfer(pool, target, wire, handler, options, resolve).start();
  });
}

const RETRYABLE_CODES = new Set(['ECONNRESET', 'EPIPE']);

class Transfer implements ActiveTransfer, ConnectionUser, ResponseEvents {
  lastByteAt: number;
  private connection: HttpConnection | null = null;
  private parser: HttpResponseParser | null = null;
  private receivedAny = false;
  /** The connection carried earlier responses: the server may have closed it as we wrote. */
  private reusedConnection = false;
  private retried = false;
  private settled = false;
  private readTime = 0;
  private untrack: () => void = () => {};

  constructor(
    private readonly pool: HttpPool,
    private readonly target: Target,
    private readonly wire: string,
    private readonly handler: ResponseHandler,
    options: RoundTripOptions,
    private readonly resolve: (result: RoundTripResult) => void,
  ) {
    this.lastByteAt = options.sentAt;
    // track() aborts at once after abortAll, before it returns: untrack must already be callable.
    if (options.supervised) this.untrack = pool.track(this);
  }

  start(): void {
    if (this.settled) return; // aborted while registering (after abortAll)
    this.send(this.pool.acquire(this.target, this.lastByteAt));
  }

  private send(connection: HttpConnection): void {
    this.connection = connection;
    this.reusedConnection = connection.responsesServed > 0;
    this.parser = new HttpResponseParser(this);
    connection.send(this, this.wire);
  }

  onRead(bytes: Buffer, length: number, now: number): void {
    this.lastByteAt = now;
    this.readTime = now;
    this.receivedAny = true;
    const parser = this.parser!;
    let consumed: number;
    try {
      consumed = parser.execute(bytes, 0, length);
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    if (this.settled || !parser.complete) return;
    // Bytes beyond the response answer nothing we asked: do not reuse that connection.
    if (parser.reusable && consumed === length) this.pool.release(this.connection!, now);
    else this.connection!.destroy();
    this.connection = null;
    this.settle(null);
  }

  onClosed(error: Error): void {
    this.connection = null;
    if (this.settled) return;
    const parser = this.parser!;
    if (error instanceof ConnectionClosedError) {
      try {
        if (parser.endOfStream()) {
          this.settle(null);
          return;
        }
      } catch (handlerError) {
        this.fail(handlerError as Error);
        return;
      }
    }
    if (!this.receivedAny && !this.retried && this.reusedConnection && isRetryable(error)) {
      this.retried = true;
      this.send(this.pool.connect(this.target));
      return;
    }
    if (!(error instanceof ConnectionClosedError)) this.settle(error);
    else if (this.receivedAny) this.settle(new ConnectionClosedError('server closed the connection before the response ended'));
    else this.settle(new ConnectionClosedError('server closed the connection without responding'));
  }

  abort(reason: Error): void {
    this.fail(reason);
  }

  onHead(status: number, reason: string): void {
    this.handler.onHead(status, reason);
  }

  onBody(bytes: Buffer, start: number, end: number): void {
    this.handler.onBody(bytes, start, end, this.readTime);
  }

  onComplete(): void {
    this.handler.onComplete(this.readTime);
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.connection?.destroy();
    this.connection = null;
    this.settle(error);
  }

  private settle(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    this.untrack();
    this.resolve({ error, resent: this.retried });
  }
}

function isRetryable(error: Error): boolean {
  if (error instanceof ConnectionClosedError) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}
