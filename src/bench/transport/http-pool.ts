/**
 * The client's keep-alive connection pool plus the bookkeeping every in-flight transfer shares:
 * one sweep timer that fails transfers idle for longer than the stall timeout and closes
 * connections idle in the pool for too long, and an abort of everything still running (Ctrl-C).
 *
 * Why a hand-written HTTP/1.1 client (connection.ts, response-parser.ts, round-trip.ts) instead of
 * undici: the streaming hot path is one socket read per token event. On the 2-core reference box
 * at ~50k events/s, undici 7's dispatch path alone cost ~10 µs of CPU per event, against an issue
 * target of ≤ 5.5 µs for the whole client; a bare `net.Socket` read costs ~3.5 µs and one into a
 * preallocated `onread` buffer 2.7–3.1 µs, and line + JSON parsing 0.7–1.2 µs. Only a transport
 * that adds little to the raw read meets the target (figures: docs/PERFORMANCE.md, "Client accuracy").
 */
import { nowSeconds } from './clock.js';
import { HttpConnection } from './connection.js';
import { AbortedError, StalledError } from './errors.js';
import { resolveTarget, type Target } from './request-head.js';

/** An in-flight transfer as the pool sees it. */
export interface ActiveTransfer {
  /** Run-clock seconds of the last byte received (the send time before any byte). */
  lastByteAt: number;
  abort(reason: Error): void;
}

/** In-flight transfers that have received no byte for a while: what the progress line shows during a stall. */
export interface SilentTransfers {
  count: number;
  /** Seconds since the last byte of the longest-silent one (0 when count is 0). */
  longestSeconds: number;
}

/**
 * Silence after which a transfer counts as silent: 10 s, or half the stall timeout when that is
 * shorter, so a stall shows on the progress line before the timeout fails it. A queued request's
 * first token can take seconds on a loaded server; ten seconds of nothing is worth a look.
 */
export function silenceNoticeSeconds(streamIdleTimeout: number): number {
  const SILENCE_NOTICE_S = 10;
  return streamIdleTimeout > 0 && Number.isFinite(streamIdleTimeout) ? Math.min(SILENCE_NOTICE_S, streamIdleTimeout / 2) : SILENCE_NOTICE_S;
}

export interface HttpPoolOptions {
  /** Seconds without a byte before a transfer fails as stalled; 0 or Infinity disables the check. */
  streamIdleTimeout: number;
}

/**
 * A pooled connection idle longer than this is closed rather than reused: before the 5 s
 * keep-alive timeout of Node's HTTP server (the sim's) and uvicorn (SGLang's) closes it under a
 * request. A connection the server closes sooner is retried once (round-trip.ts).
 */
export const POOL_IDLE_SECONDS = 4;

/** One read buffer per pool (per thread): reads are handled one at a time, synchronously. */
const READ_BUFFER_BYTES = 64 * 1024;
const MIN_SWEEP_MS = 10;
const MAX_SWEEP_MS = 1000;
/** Parsed targets kept per URL; a run uses a handful of URLs. */
const MAX_CACHED_TARGETS = 256;
/**
 * Connection attempts {@link HttpPool.prewarm} keeps in flight. A listening socket drops SYNs
 * beyond its accept queue (Linux caps it at somaxconn, 4,096 here, and the SYN backlog at 2,048)
 * and the client retries a dropped SYN only after a second; 256 at a time never comes near it.
 */
const PREWARM_CONNECTS_IN_FLIGHT = 256;

/** How {@link HttpPool.prewarm} went: connections opened, and the error that stopped it, if any. */
export interface PrewarmOutcome {
  opened: number;
  error: Error | null;
}

export class HttpPool {
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private readonly active = new Set<ActiveTransfer>();
  /** Idle connections per origin, oldest first: reuse takes the newest (least likely to be closed). */
  private readonly idle = new Map<string, HttpConnection[]>();
  private readonly targets = new Map<string, Target>();
  private readonly idleSeconds: number;
  private readonly silenceSeconds: number;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Set by {@link abortAll}: transfers that start afterwards are aborted at once. */
  private abortMessage: string | null = null;

  constructor(options: HttpPoolOptions) {
    this.idleSeconds =
      options.streamIdleTimeout > 0 && Number.isFinite(options.streamIdleTimeout) ? options.streamIdleTimeout : 0;
    this.silenceSeconds = silenceNoticeSeconds(options.streamIdleTimeout);
  }

  /** `url` resolved once and remembered. Throws on a URL the client cannot use. */
  target(url: string): Target {
    let target = this.targets.get(url);
    if (target === undefined) {
      if (this.targets.size >= MAX_CACHED_TARGETS) this.targets.clear();
      target = resolveTarget(url);
      this.targets.set(url, target);
    }
    return target;
  }

  /** An idle connection to `target`'s origin when one is fresh enough, else a new one. */
  acquire(target: Target, now: number): HttpConnection {
    const stack = this.idle.get(target.origin);
    while (stack !== undefined && stack.length > 0) {
      const connection = stack.pop()!;
      if (connection.isClosed) continue;
      if (now - connection.idleSince <= POOL_IDLE_SECONDS) return connection;
      // The newest is stale, so all older ones are too.
      connection.destroy();
      for (const older of stack.splice(0)) older.destroy();
    }
    return this.connect(target);
  }

  /** A new connection, never a pooled one. */
  connect(target: Target): HttpConnection {
    this.ensureSweep();
    return new HttpConnection(target, this.readBuffer);
  }

  /** Takes back a connection whose response is complete and which may carry another request. */
  release(connection: HttpConnection, now: number): void {
    connection.responsesServed++;
    this.park(connection, now);
  }

  /**
   * Opens `count` connections to `url`'s origin before they are needed and leaves them idle in the
   * pool, so that requests of a burst find one open and connecting stays out of the measured phase.
   * Stops opening at the first failure (a refusing server, a file-descriptor limit); what opened
   * is kept. They count as idle from the end, so none goes stale while the last ones connect.
   */
  async prewarm(url: string, count: number): Promise<PrewarmOutcome> {
    const target = this.target(url);
    const opened: HttpConnection[] = [];
    let error: Error | null = null;
    let started = 0;
    const openInTurn = async (): Promise<void> => {
      while (started < count && error === null) {
        started++;
        const connection = this.connect(target);
        const failure = await connection.ready;
        if (failure === null) opened.push(connection);
        else error ??= failure;
      }
    };
    await Promise.all(Array.from({ length: Math.min(count, PREWARM_CONNECTS_IN_FLIGHT) }, openInTurn));
    const now = nowSeconds();
    for (const connection of opened) this.park(connection, now);
    return { opened: opened.length, error };
  }

  private park(connection: HttpConnection, now: number): void {
    connection.park(now);
    const origin = connection.target.origin;
    let stack = this.idle.get(origin);
    if (stack === undefined) this.idle.set(origin, (stack = []));
    stack.push(connection);
  }

  /** Registers a transfer for stall detection and interruption; returns its unregister function. */
  track(transfer: ActiveTransfer): () => void {
    if (this.abortMessage !== null) {
      transfer.abort(new AbortedError(this.abortMessage));
      return () => {};
    }
    this.active.add(transfer);
    return () => {
      this.active.delete(transfer);
    };
  }

  /** Number of transfers in flight. */
  get inFlight(): number {
    return this.active.size;
  }

  /** The transfers in flight silent for {@link silenceNoticeSeconds} or longer. */
  silentTransfers(): SilentTransfers {
    const now = nowSeconds();
    const silent: SilentTransfers = { count: 0, longestSeconds: 0 };
    for (const transfer of this.active) {
      const silence = now - transfer.lastByteAt;
      if (silence < this.silenceSeconds) continue;
      silent.count++;
      silent.longestSeconds = Math.max(silent.longestSeconds, silence);
    }
    return silent;
  }

  /** Aborts every transfer in flight and any started later (their requests fail as `aborted`). */
  abortAll(message: string): void {
    this.abortMessage = message;
    for (const transfer of [...this.active]) {
      this.active.delete(transfer);
      transfer.abort(new AbortedError(message));
    }
  }

  /** Stops the sweep and closes the idle connections. */
  async close(): Promise<void> {
    if (this.sweepTimer !== null) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    for (const stack of this.idle.values()) for (const connection of stack) connection.destroy();
    this.idle.clear();
  }

  private ensureSweep(): void {
    if (this.sweepTimer !== null) return;
    const stallPeriodMs = (this.idleSeconds * 1000) / 10;
    const periodMs = this.idleSeconds > 0 ? Math.min(MAX_SWEEP_MS, Math.max(MIN_SWEEP_MS, stallPeriodMs)) : MAX_SWEEP_MS;
    this.sweepTimer = setInterval(() => this.sweep(), periodMs);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const now = nowSeconds();
    if (this.idleSeconds > 0) {
      for (const transfer of this.active) {
        if (now - transfer.lastByteAt >= this.idleSeconds) {
          this.active.delete(transfer);
          transfer.abort(new StalledError(`stalled: no byte received for ${this.idleSeconds} s (--stream-idle-timeout)`));
        }
      }
    }
    for (const stack of this.idle.values()) {
      let stale = 0;
      while (stale < stack.length && (stack[stale]!.isClosed || now - stack[stale]!.idleSince > POOL_IDLE_SECONDS)) stale++;
      for (const connection of stack.splice(0, stale)) connection.destroy();
    }
  }
}
