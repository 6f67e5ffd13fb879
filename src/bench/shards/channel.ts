/**
 * The coordinator's and the shards' link: one TCP connection per shard carrying JSON messages,
 * one per line. Its closing is how either side learns the other is gone, a shard killed included.
 */
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../../core/errors.js';
import type { StopSignal } from '../runner/interrupt.js';
import type { LoopHealthSample } from '../selfcheck/verdict.js';
import type { ServerAddress } from '../args/urls.js';
import type { ShardItem } from './merge.js';

/** What a shard sends the coordinator. */
export type ShardMessage =
  | { type: 'hello'; rank: number; shards: number; host: string; pid: number; runToHost: number }
  | { type: 'ready'; fingerprint: string; requests: number }
  | { type: 'probe-answer'; id: number; at: number }
  | { type: 'progress'; done: number }
  | { type: 'items'; items: ShardItem[] }
  | { type: 'result'; report: Omit<ShardReport, 'items'> }
  | { type: 'failed'; message: string };

/** A shard's measured phase: its sent requests' raw outputs (its run clock) and its own view of its timing. */
export interface ShardReport {
  items: ShardItem[];
  /** Its run clock when its first request was due (the start instant) and when its last finished. */
  startedAt: number;
  endedAt: number;
  /** A stop signal ended its sending early. */
  stopped: boolean;
  /** Its sending loops' health over the measured phase: the coordinator judges the shard (and the run) by them. */
  loopHealth: LoopHealthSample[];
}

/** What the coordinator sends a shard. */
export type CoordinatorMessage =
  | { type: 'welcome'; server: ServerAddress; model: string; timeScale: number; concurrency: number | null }
  | { type: 'probe'; id: number }
  | { type: 'start'; at: number }
  | { type: 'stop'; signal: StopSignal }
  | { type: 'refused'; message: string };

/** A connection carrying one JSON message per line. */
export class MessageChannel<In extends { type: string }, Out> {
  private closed = false;
  private ending = false;

  constructor(
    private readonly socket: Socket,
    onMessage: (message: In) => void,
    onClose: (error: Error | null) => void,
  ) {
    socket.setNoDelay(true);
    let closeError: Error | null = null;
    socket.on('error', (error) => {
      closeError = error;
    });
    socket.on('close', () => {
      this.closed = true;
      onClose(closeError);
    });
    const lines = createInterface({ input: socket, crlfDelay: Infinity });
    lines.on('line', (line) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        socket.destroy(new Error(`a line that is not JSON (${line.slice(0, 60)})`));
        return;
      }
      if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'string') {
        socket.destroy(new Error(`a message without a type (${line.slice(0, 60)})`));
        return;
      }
      onMessage(message as In);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get remoteAddress(): string {
    return this.socket.remoteAddress ?? 'unknown';
  }

  send(message: Out): void {
    if (!this.closed && !this.ending) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends the last message (if any) and closes once it is written. */
  end(message?: Out): void {
    if (this.closed || this.ending) return;
    this.ending = true;
    if (message === undefined) this.socket.end();
    else this.socket.end(`${JSON.stringify(message)}\n`);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** `host:port` of `--coordinator`, checked (port 0: the coordinator takes any free port and says which). */
export function parseCoordinatorAddress(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(text.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UserError(`--coordinator '${text}' is not HOST:PORT: give the coordinator's address, e.g. servebench-0.servebench:29400`);
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/**
 * Connects to the coordinator, trying again every half second until `timeoutS` passes: in a
 * cluster the shards' pods may start before the coordinator's.
 */
export async function connectWithRetry(host: string, port: number, timeoutS: number): Promise<Socket> {
  if (port === 0) throw new UserError('--coordinator HOST:0 names no port to connect to: give the port the coordinator says it listens on');
  const deadline = Date.now() + timeoutS * 1000;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      return await new Promise<Socket>((resolve, reject) => {
        const socket = connect({ host, port });
        socket.once('connect', () => {
          socket.off('error', reject);
          resolve(socket);
        });
        socket.once('error', reject);
      });
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      await sleep(500);
    }
  }
  throw new UserError(`cannot reach the coordinator at ${host}:${port} within ${timeoutS} s (${lastError}): start it first, or check --coordinator`);
}
