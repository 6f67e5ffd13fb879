/**
 * One keep-alive connection: a `net.Socket` (a `tls.TLSSocket` for https, the same API) that
 * reads into its pool's preallocated buffer (`onread`: no Buffer per read) and hands each read,
 * stamped with the run clock before anything else looks at it, to the transfer that owns the
 * connection at that moment. It reports the connection's end exactly once.
 *
 * It also says when the connection was attempted and established, and when a request's bytes
 * went out: a request given to a connection still connecting is held here and written the moment
 * the connection is up, so the write stamp is the instant the bytes reached the kernel.
 */
import { connect as connectTcp, isIP, type OnReadOpts, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import { nowSeconds } from './clock.js';
import { ConnectionClosedError } from './errors.js';
import type { Target } from './request-head.js';

/** The transfer using a connection. */
export interface ConnectionUser {
  /** The request's bytes were handed to the kernel in a write that began at run-clock `at`. */
  onWritten(at: number): void;
  /** `bytes[0, length)` arrived at run-clock `now`; the buffer is reused after the call returns. */
  onRead(bytes: Buffer, length: number, now: number): void;
  /** The connection ended: the server closed it (ConnectionClosedError) or a socket error. */
  onClosed(error: Error): void;
}

/**
 * A connection not established by then fails as `cannot connect` (undici's default too); without it
 * a host that never answers would hold the request for the operating system's ~2-minute timeout.
 */
const CONNECT_TIMEOUT_MS = 10_000;

export class HttpConnection {
  private readonly socket: Socket;
  private user: ConnectionUser | null = null;
  private closed = false;
  /** A request given before the connection was up, written when it is. */
  private pendingRequest: string | null = null;
  private settleReady: (error: Error | null) => void = () => {};
  /** Resolves once: null when the connection is established, the error when it failed first. Never rejects. */
  readonly ready: Promise<Error | null>;
  /**
   * Run-clock seconds the connection attempt went out. Node issues the connect on the next tick
   * (after the current synchronous work), so it is stamped on that tick, right after Node's.
   */
  connectStartedAt: number;
  /** Run-clock seconds the connection was established (TLS: handshake done); null until then. */
  establishedAt: number | null = null;
  /** Responses this connection has completed. */
  responsesServed = 0;
  /** It has waited idle in the pool: the server may have closed it meanwhile (the keep-alive race). */
  hasIdled = false;
  /** Run-clock seconds since when the connection sits idle in the pool. */
  idleSince = 0;

  constructor(
    readonly target: Target,
    private readonly readBuffer: Buffer,
  ) {
    this.ready = new Promise((resolve) => (this.settleReady = resolve));
    this.connectStartedAt = nowSeconds();
    this.socket = openSocket(target, { buffer: readBuffer, callback: (length) => this.deliver(length) });
    process.nextTick(() => (this.connectStartedAt = nowSeconds()));
    this.socket.setNoDelay(true);
    const connectTimer = setTimeout(() => this.end(connectTimedOut(target)), CONNECT_TIMEOUT_MS).unref();
    this.socket.once(target.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      this.established();
    });
    this.socket.once('close', () => clearTimeout(connectTimer));
    this.socket.on('end', () => this.end(new ConnectionClosedError('server closed the connection')));
    this.socket.on('error', (error) => this.end(error));
    this.socket.on('close', () => this.end(new ConnectionClosedError('connection closed')));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Gives the connection to `user` and sends `request`: now if the connection is up, else as soon as it is. */
  send(user: ConnectionUser, request: string): void {
    this.user = user;
    this.socket.ref();
    if (this.establishedAt === null) this.pendingRequest = request;
    else this.write(request);
  }

  /** The transfer is done with the connection; it waits idle and does not keep the process alive. */
  park(now: number): void {
    this.user = null;
    this.idleSince = now;
    this.hasIdled = true;
    this.socket.unref();
  }

  /** Closes the connection without telling its user (who is the one closing it). */
  destroy(): void {
    this.user = null;
    this.closed = true;
    this.settleReady(new ConnectionClosedError('connection closed before it was established'));
    this.socket.destroy();
  }

  private established(): void {
    this.establishedAt = nowSeconds();
    this.settleReady(null);
    const request = this.pendingRequest;
    this.pendingRequest = null;
    if (request !== null) this.write(request);
  }

  private write(request: string): void {
    // On an established socket libuv writes at once when nothing is queued: the bytes leave in this
    // call. Stamped before it, so the start never falls after the server has the request.
    const at = nowSeconds();
    this.socket.write(request);
    this.user?.onWritten(at);
  }

  /** Returns true: keep reading (false would pause the socket). */
  private deliver(length: number): boolean {
    const now = nowSeconds();
    if (this.user) this.user.onRead(this.readBuffer, length, now);
    // Bytes on an idle connection answer no request: the connection cannot be trusted any more.
    else this.destroy();
    return true;
  }

  private end(error: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.settleReady(error);
    const user = this.user;
    this.user = null;
    this.socket.destroy();
    user?.onClosed(error);
  }
}

function connectTimedOut(target: Target): Error {
  const error = new Error(`no connection to ${target.host}:${target.port} within ${CONNECT_TIMEOUT_MS / 1000} s`);
  return Object.assign(error, { code: 'ETIMEDOUT' });
}

function openSocket(target: Target, onread: OnReadOpts): Socket {
  if (!target.tls) return connectTcp({ host: target.host, port: target.port, onread });
  // tls.connect takes `onread` too (Node docs), though @types/node 20 does not declare it.
  const options: ConnectionOptions & { onread: OnReadOpts } = {
    host: target.host,
    port: target.port,
    servername: isIP(target.host) ? undefined : target.host,
    onread,
  };
  return connectTls(options);
}
