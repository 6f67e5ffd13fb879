/**
 * One keep-alive connection: a `net.Socket` (a `tls.TLSSocket` for https, the same API) that
 * reads into its pool's preallocated buffer (`onread`: no Buffer per read) and hands each read,
 * stamped with the run clock before anything else looks at it, to the transfer that owns the
 * connection at that moment. It reports the connection's end exactly once.
 */
import { connect as connectTcp, isIP } from 'node:net';
import type { OnReadOpts, Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { nowSeconds } from './clock.js';
import { ConnectionClosedError } from './errors.js';
import type { Target } from './request-head.js';

/** The transfer reading a connection. */
export interface ConnectionUser {
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
  /** Responses this connection has completed: a reused connection may meet a server-side close. */
  responsesServed = 0;
  /** Run-clock seconds since when the connection sits idle in the pool. */
  idleSince = 0;

  constructor(
    readonly target: Target,
    private readonly readBuffer: Buffer,
  ) {
    this.socket = openSocket(target, { buffer: readBuffer, callback: (length) => this.deliver(length) });
    this.socket.setNoDelay(true);
    const connectTimer = setTimeout(() => this.end(connectTimedOut(target)), CONNECT_TIMEOUT_MS).unref();
    this.socket.once('connect', () => clearTimeout(connectTimer));
    this.socket.once('close', () => clearTimeout(connectTimer));
    this.socket.on('end', () => this.end(new ConnectionClosedError('server closed the connection')));
    this.socket.on('error', (error) => this.end(error));
    this.socket.on('close', () => this.end(new ConnectionClosedError('connection closed')));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Gives the connection to `user` and sends `request` (written before connecting is fine). */
  send(user: ConnectionUser, request: string): void {
    this.user = user;
    this.socket.ref();
    this.socket.write(request);
  }

  /** The transfer is done with the connection; it waits idle and does not keep the process alive. */
  park(now: number): void {
    this.user = null;
    this.idleSince = now;
    this.responsesServed++;
    this.socket.unref();
  }

  /** Closes the connection without telling its user (who is the one closing it). */
  destroy(): void {
    this.user = null;
    this.closed = true;
    this.socket.destroy();
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
