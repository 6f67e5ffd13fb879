/**
 * A shard's side of the link: it introduces itself, learns from the coordinator which server and
 * model to drive (and the sim's time scale), answers clock probes at once, waits for the start
 * instant, reports progress as it goes and its raw outputs at the end. When the coordinator goes
 * away the shard stops: a run nobody merges is worth nothing.
 */
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import { UserError } from '../../core/errors.js';
import type { ServerAddress } from '../args/urls.js';
import type { StopSignal } from '../runner/interrupt.js';
import { hostClockSeconds, runToHostSeconds } from './clock.js';
import { connectWithRetry, MessageChannel, type CoordinatorMessage, type ShardMessage, type ShardReport } from './channel.js';

export interface ShardWelcome {
  server: ServerAddress;
  model: string;
  timeScale: number;
  concurrency: number | null;
}

export class ShardFailed extends UserError {
  override readonly code = 'E_SHARD_FAILED';
}

/**
 * Requests per message of a report: a run of 10,000 streams of 1,500 tokens is hundreds of MB of
 * JSON, past what one string can hold; in batches no line is more than a few MB.
 */
const ITEMS_PER_MESSAGE = 256;

/** How often batched progress goes to the coordinator (ms). */
const PROGRESS_FLUSH_MS = 100;

export class ShardLink {
  private welcome: ((welcome: ShardWelcome) => void) | null = null;
  private start: ((at: number) => void) | null = null;
  private lost: ((error: Error) => void)[] = [];
  private stopHandlers: ((signal: StopSignal) => void)[] = [];
  private pendingProgress = 0;
  private progressTimer: NodeJS.Timeout | null = null;
  private finished = false;
  /** Why the link ended before the report, once it has. */
  private lostError: Error | null = null;
  private closedWaiters: (() => void)[] = [];
  private readonly channel: MessageChannel<CoordinatorMessage, ShardMessage>;

  private constructor(
    socket: Socket,
    readonly rank: number,
    readonly shards: number,
    private readonly skewS: number,
  ) {
    this.channel = new MessageChannel<CoordinatorMessage, ShardMessage>(
      socket,
      (message) => this.receive(message),
      (error) => {
        if (this.finished) {
          for (const closed of this.closedWaiters) closed();
          return;
        }
        const why = new ShardFailed(`shard ${rank} of ${shards}: the coordinator went away before the run ended${error ? ` (${error.message})` : ''}; nothing of this shard was kept`);
        this.lostError ??= why;
        for (const lost of this.lost) lost(why);
      },
    );
  }

  /** Connects (retrying until `timeoutS`), says hello and waits for the coordinator's welcome. */
  static async open(options: { host: string; port: number; rank: number; shards: number; timeoutS: number; skewS: number }): Promise<{ link: ShardLink; welcome: ShardWelcome }> {
    const socket = await connectWithRetry(options.host, options.port, options.timeoutS);
    const link = new ShardLink(socket, options.rank, options.shards, options.skewS);
    const welcome = link.until<ShardWelcome>((resolve) => {
      link.welcome = resolve;
    });
    link.hello();
    return { link, welcome: await welcome };
  }

  /** Reports the shard ready and resolves to the start instant on this process's run clock. */
  ready(fingerprint: string, requests: number): Promise<number> {
    const started = this.until<number>((resolve) => {
      this.start = resolve;
    });
    this.channel.send({ type: 'ready', fingerprint, requests });
    return started;
  }

  /** A stop from the coordinator (its operator's signal). */
  onStop(handler: (signal: StopSignal) => void): void {
    this.stopHandlers.push(handler);
  }

  /** Calls `handler` when the coordinator goes away (or ends the run) before the report. */
  onLost(handler: (error: Error) => void): void {
    this.lost.push(handler);
  }

  progress(done: number): void {
    this.pendingProgress += done;
    this.progressTimer ??= setTimeout(() => this.flushProgress(), PROGRESS_FLUSH_MS);
  }

  /** Sends the raw outputs and waits until the coordinator has them (it closes the link). */
  async report(report: ShardReport): Promise<void> {
    if (this.lostError !== null) throw this.lostError;
    this.flushProgress();
    const closed = new Promise<void>((resolve) => this.closedWaiters.push(resolve));
    this.finished = true;
    const { items, ...rest } = report;
    for (let from = 0; from < items.length; from += ITEMS_PER_MESSAGE) this.channel.send({ type: 'items', items: items.slice(from, from + ITEMS_PER_MESSAGE) });
    this.channel.send({ type: 'result', report: rest });
    await closed;
  }

  /** Tells the coordinator this shard failed, then closes. */
  fail(message: string): void {
    this.finished = true;
    this.channel.end({ type: 'failed', message });
  }

  /** Closes once what was sent is written. */
  close(): void {
    this.finished = true;
    if (this.progressTimer !== null) clearTimeout(this.progressTimer);
    this.channel.end();
  }

  private flushProgress(): void {
    if (this.progressTimer !== null) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    if (this.pendingProgress > 0) this.channel.send({ type: 'progress', done: this.pendingProgress });
    this.pendingProgress = 0;
  }

  private hello(): void {
    this.channel.send({ type: 'hello', rank: this.rank, shards: this.shards, host: hostname(), pid: process.pid, runToHost: runToHostSeconds(this.skewS) });
  }

  /** Waits for what `arm` resolves, or fails when the coordinator refuses or goes away first. */
  private until<T>(arm: (resolve: (value: T) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Lost already (while this shard was loading or warming up): nothing more will come.
      if (this.lostError !== null) {
        reject(this.lostError);
        return;
      }
      arm(resolve);
      this.lost.push(reject);
    });
  }

  private receive(message: CoordinatorMessage): void {
    switch (message.type) {
      case 'welcome':
        this.welcome?.({ server: message.server, model: message.model, timeScale: message.timeScale, concurrency: message.concurrency });
        break;
      case 'probe':
        this.channel.send({ type: 'probe-answer', id: message.id, at: hostClockSeconds(this.skewS) });
        break;
      case 'start':
        // The instant on this host's clock, as the coordinator computed it from the measured offset.
        this.start?.(message.at - runToHostSeconds(this.skewS));
        break;
      case 'stop':
        for (const handler of this.stopHandlers) handler(message.signal);
        break;
      case 'refused': {
        const why = new ShardFailed(`shard ${this.rank} of ${this.shards}: the coordinator ended the run: ${message.message}`);
        this.lostError ??= why;
        for (const lost of this.lost) lost(why);
        break;
      }
    }
  }
}
