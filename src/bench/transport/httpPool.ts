/**
 * A pooled keep-alive HTTP client (undici `Agent`) plus the bookkeeping every in-flight transfer
 * shares: one sweep timer that fails transfers idle for longer than the stall timeout, and an
 * abort of everything still running (Ctrl-C).
 */
import { Agent } from 'undici';
import { nowSeconds } from './clock.js';
import { AbortedError, StalledError } from './errors.js';

/** An in-flight transfer as the pool sees it. */
export interface ActiveTransfer {
  /** Run-clock seconds of the last byte received (the send time before any byte). */
  lastByteAt: number;
  abort(reason: Error): void;
}

export interface HttpPoolOptions {
  /** Seconds without a byte before a transfer fails as stalled; 0 or Infinity disables the check. */
  streamIdleTimeout: number;
}

const MIN_SWEEP_MS = 10;
const MAX_SWEEP_MS = 1000;

export class HttpPool {
  readonly agent: Agent;
  private readonly active = new Set<ActiveTransfer>();
  private readonly idleSeconds: number;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Set by {@link abortAll}: transfers that start afterwards are aborted at once. */
  private abortMessage: string | null = null;

  constructor(options: HttpPoolOptions) {
    // pipelining 1 = keep-alive without pipelining; body/header timeouts off so long streams survive.
    this.agent = new Agent({
      connections: null,
      pipelining: 1,
      bodyTimeout: 0,
      headersTimeout: 0,
      keepAliveTimeout: 60_000,
    });
    this.idleSeconds =
      options.streamIdleTimeout > 0 && Number.isFinite(options.streamIdleTimeout) ? options.streamIdleTimeout : 0;
  }

  /** Registers a transfer for stall detection and interruption; returns its unregister function. */
  track(transfer: ActiveTransfer): () => void {
    if (this.abortMessage !== null) {
      transfer.abort(new AbortedError(this.abortMessage));
      return () => {};
    }
    this.active.add(transfer);
    if (this.idleSeconds > 0 && this.sweepTimer === null) this.startSweep();
    return () => {
      this.active.delete(transfer);
    };
  }

  private startSweep(): void {
    const periodMs = Math.min(MAX_SWEEP_MS, Math.max(MIN_SWEEP_MS, (this.idleSeconds * 1000) / 10));
    this.sweepTimer = setInterval(() => this.sweep(), periodMs);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const now = nowSeconds();
    for (const transfer of this.active) {
      if (now - transfer.lastByteAt >= this.idleSeconds) {
        this.active.delete(transfer);
        transfer.abort(new StalledError(`stalled: no byte received for ${this.idleSeconds} s (--stream-idle-timeout)`));
      }
    }
  }

  /** Number of transfers in flight. */
  get inFlight(): number {
    return this.active.size;
  }

  /** Aborts every transfer in flight and any started later (their requests fail as `aborted`). */
  abortAll(message: string): void {
    this.abortMessage = message;
    for (const transfer of [...this.active]) {
      this.active.delete(transfer);
      transfer.abort(new AbortedError(message));
    }
  }

  /** Stops the sweep and closes idle connections. */
  async close(): Promise<void> {
    if (this.sweepTimer !== null) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.agent.destroy();
  }
}
