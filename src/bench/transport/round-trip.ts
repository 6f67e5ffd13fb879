/**
 * One HTTP/1.1 request and its response over the pool: take a connection, write the request in
 * one piece, feed every read to the response parser, and give the connection back when the
 * response ended cleanly on a keep-alive connection (otherwise close it).
 *
 * The request's start is stamped as its bytes go out (right before the write that sends them), not
 * when it was handed over: work the client does before that (waiting for its turn in a burst, for a
 * connection to open) is the client's, not the server's, and is reported apart as the send phases. With
 * `startAt: 'connect'` a request that opens its own connection starts when the connection attempt
 * left, so connecting counts, as in bench_serving.
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
import { serializeRequest, type Target } from './request-head.js';
import { HttpResponseParser, type ResponseEvents } from './response-parser.js';
import { nowSeconds } from './clock.js';
import { loopHeartbeat } from '../selfcheck/heartbeat.js';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

/** A request ready to go: its origin and its bytes, head and body in one piece. */
export interface WireRequest {
  target: Target;
  wire: string;
}

/** `request` as bytes for the pool's origin; throws on a URL or header the client cannot send. */
export function toWire(pool: HttpPool, request: HttpRequest): WireRequest {
  const target = pool.target(request.url);
  return { target, wire: serializeRequest(request.method, target, request.headers, request.body) };
}

/** What a request's start is: its bytes leaving (default), or its own connection attempt leaving (connecting counts). */
export type StartStamp = 'write' | 'connect';

/** Where a request's time went before its bytes were out, in seconds; clock-free, so they cross threads as they are. */
export interface SendPhases {
  /** From when it was due until it had a connection: an idle one taken, or its own connection attempt leaving. */
  wait: number;
  /** Its own connection being established (0 on an open connection). */
  connect: number;
  /** From the connection in hand to the request's bytes out. */
  write: number;
}

/** The request is out: its start (run clock, see StartStamp) and where its time went until then. */
export interface SentRequest {
  start: number;
  phases: SendPhases;
}

/** The response as it arrives; a callback that throws fails the transfer with that error. */
export interface ResponseHandler {
  /** The request's bytes went out (again, after a resend): the response is timed from `sent.start`. */
  onSent(sent: SentRequest): void;
  onHead(status: number, reason: string): void;
  /** De-chunked body bytes `bytes[start, end)` of the read that arrived at `now`; valid during the call only. */
  onBody(bytes: Buffer, start: number, end: number, now: number): void;
  /** The response ended; `now` is the arrival time of its last read. */
  onComplete(now: number): void;
}

export interface RoundTripOptions {
  /** Run-clock seconds the request was due to leave: the stall clock starts here, and the wait phase. */
  dueAt: number;
  /** Watched for stalls and aborted by `abortAll` (generation requests); auxiliary calls are not. */
  supervised: boolean;
  startAt: StartStamp;
}

export interface RoundTripResult {
  /** Null when the response was consumed, else the error that ended the transfer. */
  error: Error | null;
  /** The request was written a second time, on a new connection (see above). */
  resent: boolean;
  /**
   * The most by which any read of the response may have been stamped late, in seconds (this
   * thread's heartbeat, selfcheck/heartbeat.ts); null when the heartbeat was not running.
   */
  stampLatenessBound: number | null;
}

export function roundTrip(pool: HttpPool, request: WireRequest, handler: ResponseHandler, options: RoundTripOptions): Promise<RoundTripResult> {
  return new Promise((resolve) => new Transfer(pool, request, handler, options, resolve).start());
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
  /** Run-clock seconds an idle connection was taken (unused when the transfer opened its own). */
  private takenAt = 0;
  private stampLatenessBound: number | null = null;
  private untrack: () => void = () => {};

  constructor(
    private readonly pool: HttpPool,
    private readonly request: WireRequest,
    private readonly handler: ResponseHandler,
    private readonly options: RoundTripOptions,
    private readonly resolve: (result: RoundTripResult) => void,
  ) {
    this.lastByteAt = options.dueAt;
    // track() aborts at once after abortAll, before it returns: untrack must already be callable.
    if (options.supervised) this.untrack = pool.track(this);
  }

  start(): void {
    if (this.settled) return; // aborted while registering (after abortAll)
    this.takenAt = nowSeconds();
    this.send(this.pool.acquire(this.request.target, this.takenAt));
  }

  private send(connection: HttpConnection): void {
    this.connection = connection;
    this.reusedConnection = connection.hasIdled;
    this.parser = new HttpResponseParser(this);
    connection.send(this, this.request.wire);
  }

  onWritten(at: number): void {
    const connection = this.connection!;
    // A connection that never idled in the pool was opened for this request.
    const opened = !connection.hasIdled;
    const inHand = opened ? connection.connectStartedAt : this.takenAt;
    const established = opened ? connection.establishedAt! : this.takenAt;
    const start = opened && this.options.startAt === 'connect' ? connection.connectStartedAt : at;
    this.lastByteAt = start;
    this.handler.onSent({
      start,
      phases: { wait: Math.max(0, inHand - this.options.dueAt), connect: established - inHand, write: at - established },
    });
  }

  onRead(bytes: Buffer, length: number, now: number): void {
    this.lastByteAt = now;
    this.readTime = now;
    this.receivedAny = true;
    const lateness = loopHeartbeat.stampLatenessBound(now);
    if (lateness !== null && (this.stampLatenessBound === null || lateness > this.stampLatenessBound)) this.stampLatenessBound = lateness;
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
      this.takenAt = nowSeconds();
      this.send(this.pool.connect(this.request.target));
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
    this.resolve({ error, resent: this.retried, stampLatenessBound: this.stampLatenessBound });
  }
}

function isRetryable(error: Error): boolean {
  if (error instanceof ConnectionClosedError) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}
