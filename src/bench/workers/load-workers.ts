/**
 * The main thread's side of multi-threaded load generation. The runner keeps the schedule, the
 * global `--max-concurrency` semaphore, the progress bar and Ctrl-C. Before the clock starts each
 * request is prepared on the worker that will send it (round-robin in arrival order: requests are
 * prepared in schedule order); at its release the worker is told to send it, and the finished
 * record comes back, its start time converted to this thread's run clock. The runner's own bookkeeping puts records in dataset
 * order, so the merged run is exactly what one process would have recorded, only stamped by loops
 * that were never the bottleneck.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../core/module-worker.js';
import { UserError } from '../../core/errors.js';
import type { LoopHealthSample } from '../selfcheck/verdict.js';
import type { Release } from '../runner/send-request.js';
import type { PrewarmOutcome, SilentTransfers } from '../transport/http-pool.js';
import type { RequestInput, RequestOutput } from '../types.js';
import { outputsFromSharedClock, threadClockOffsetMs, toSharedSeconds } from './clock.js';
import type { FromWorker, LoadWorkerConfig, ToWorker } from './messages.js';
import { workerForArrival } from './plan.js';

interface Pending {
  resolve(outputs: RequestOutput[]): void;
  reject(error: Error): void;
  worker: number;
}

/** A worker's answer to a question asked of every worker. */
type WorkerAnswer = Extract<FromWorker, { kind: 'prewarmed' | 'heap-settled' | 'health' }>;

/** A request prepared on a worker: which one holds it, under which id. */
export interface WorkerTicket {
  id: number;
  worker: number;
}

interface WorkerSlot {
  thread: Worker;
  /** Takes the worker's answer to the question {@link LoadWorkers.askEvery} asked it (null: the worker died). */
  onAnswer(answer: WorkerAnswer | null): void;
  /** The worker failed: it answers nothing any more. */
  dead: boolean;
  /** The worker's last report of its silent transfers. */
  silent: SilentTransfers;
}

export class LoadWorkers {
  private readonly offsetMs = threadClockOffsetMs();
  private readonly slots: WorkerSlot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private arrivals = 0;
  private closing = false;

  private constructor(count: number, config: LoadWorkerConfig, print: (line: string) => void, ready: (error?: Error) => void) {
    let started = 0;
    for (let index = 0; index < count; index++) {
      const thread = startModuleWorker(import.meta.url, 'worker-entry', { workerData: config });
      this.slots.push({ thread, onAnswer: () => {}, dead: false, silent: { count: 0, longestSeconds: 0 } });
      thread.on('message', (message: FromWorker) => {
        switch (message.kind) {
          case 'ready':
            if (++started === count) {
              this.holdProcess(false);
              ready();
            }
            return;
          case 'done':
            this.settle(message.id, message.outputs);
            return;
          case 'print':
            print(message.line);
            return;
          case 'heap-settled':
          case 'prewarmed':
          case 'health':
            this.slots[index]!.onAnswer(message);
            return;
          case 'silence':
            this.slots[index]!.silent = message.silent;
            return;
        }
      });
      thread.on('error', (error) => this.fail(index, error, ready));
      thread.on('exit', (code) => {
        if (!this.closing) this.fail(index, new Error(`exited with code ${code}`), ready);
      });
    }
  }

  /** Starts `count` workers and resolves once every one is ready to send. */
  static async start(count: number, config: LoadWorkerConfig, print: (line: string) => void): Promise<LoadWorkers> {
    let workers: LoadWorkers | undefined;
    await new Promise<void>((resolve, reject) => {
      workers = new LoadWorkers(count, config, print, (error) => (error ? reject(error) : resolve()));
    });
    return workers!;
  }

  get count(): number {
    return this.slots.length;
  }

  /** Requests handed to a worker and not yet finished. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Has `input` prepared on the next worker in arrival order. The `prepare` of a RequestExecutor. */
  prepare(input: RequestInput): WorkerTicket {
    const ticket = { id: this.nextId++, worker: workerForArrival(this.arrivals++, this.slots.length) };
    this.post(ticket.worker, { kind: 'prepare', id: ticket.id, input });
    return ticket;
  }

  /**
   * Has the worker holding `ticket` send it (all its turns in multi-turn mode); resolves with its
   * records on this thread's clock. The `execute` of a RequestExecutor.
   */
  execute(ticket: WorkerTicket, release: Release): Promise<RequestOutput[]> {
    if (this.pending.size === 0) this.holdProcess(true);
    return new Promise<RequestOutput[]>((resolve, reject) => {
      this.pending.set(ticket.id, { resolve, reject, worker: ticket.worker });
      this.post(ticket.worker, { kind: 'send', id: ticket.id, queueTime: release.queueTime, dueAt: toSharedSeconds(release.dueAt, this.offsetMs) });
    });
  }

  /** Has every worker collect its garbage once its requests are prepared (core/settle-heap.ts). */
  async settleHeaps(): Promise<void> {
    await this.askEvery({ kind: 'settle-heap' });
  }

  /** Opens `count` connections to `url` before the measured phase, spread over the workers as the requests will be. */
  async prewarm(url: string, count: number): Promise<PrewarmOutcome> {
    const perWorker = Math.ceil(count / this.slots.length);
    const outcomes = (await this.askEvery({ kind: 'prewarm', url, count: perWorker })).map((answer): PrewarmOutcome => {
      if (answer?.kind !== 'prewarmed') return { opened: 0, error: new Error('the load worker ended before its connections opened') };
      return { opened: answer.opened, error: answer.error === null ? null : new Error(answer.error) };
    });
    return { opened: outcomes.reduce((sum, outcome) => sum + outcome.opened, 0), error: outcomes.find((outcome) => outcome.error !== null)?.error ?? null };
  }

  /** The silent transfers of every worker, as each last reported them (at most a second old). */
  silentTransfers(): SilentTransfers {
    const total: SilentTransfers = { count: 0, longestSeconds: 0 };
    for (const { silent } of this.slots) {
      total.count += silent.count;
      total.longestSeconds = Math.max(total.longestSeconds, silent.longestSeconds);
    }
    return total;
  }

  /** The measured phase starts: each worker's self-check covers it from now on, not the warmup. */
  startMeasuring(): void {
    for (let index = 0; index < this.slots.length; index++) this.post(index, { kind: 'measure' });
  }

  /** Fails every request in flight on every worker, and any sent later, as `aborted` (Ctrl-C's InFlightTransfers). */
  abortAll(message: string): void {
    for (let index = 0; index < this.slots.length; index++) this.post(index, { kind: 'abort-all', message });
  }

  /**
   * The measured phase is over: the self-check sample of each worker that sent requests (since the
   * first, or since {@link startMeasuring}) and lives to report, in worker order. Repeated runs
   * ask once per run.
   */
  async endMeasuring(): Promise<LoopHealthSample[]> {
    const answers = await this.askEvery({ kind: 'end-measure' });
    return answers.flatMap((answer) => (answer?.kind === 'health' && answer.sample !== null ? [answer.sample] : []));
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    this.closing = true;
    this.slots.forEach((_slot, index) => this.post(index, { kind: 'finish' }));
    await Promise.all(this.slots.map((slot) => slot.thread.terminate()));
  }

  /**
   * Workers keep the process alive only while they owe an answer (requests in flight, or the
   * samples close() waits for): a run that fails before close() still lets the process exit.
   */
  private holdProcess(hold: boolean): void {
    for (const slot of this.slots) {
      if (hold) slot.thread.ref();
      else slot.thread.unref();
    }
  }

  /** Posts each worker its question and resolves with every worker's answer, in worker order (null for a worker that died). */
  private async askEvery(question: ToWorker): Promise<Array<WorkerAnswer | null>> {
    this.holdProcess(true);
    const answers = await Promise.all(
      this.slots.map(
        (slot, index) =>
          new Promise<WorkerAnswer | null>((resolve) => {
            if (slot.dead) return resolve(null);
            slot.onAnswer = resolve;
            this.post(index, question);
          }),
      ),
    );
    this.holdProcess(false);
    return answers;
  }

  private post(worker: number, message: ToWorker): void {
    this.slots[worker]!.thread.postMessage(message);
  }

  private settle(id: number, outputs: RequestOutput[]): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    if (this.pending.size === 0 && !this.closing) this.holdProcess(false);
    pending.resolve(outputsFromSharedClock(outputs, this.offsetMs));
  }

  /** A worker that dies takes its requests with it: the run cannot be merged honestly any more. */
  private fail(worker: number, cause: Error, ready: (error?: Error) => void): void {
    const error = new UserError(`load worker ${worker + 1} of ${this.slots.length} failed: ${cause.message.split('\n')[0]}`);
    ready(error);
    for (const [id, pending] of this.pending) {
      if (pending.worker !== worker) continue;
      this.pending.delete(id);
      pending.reject(error);
    }
    if (this.pending.size === 0 && !this.closing) this.holdProcess(false);
    this.slots[worker]!.dead = true;
    this.slots[worker]!.onAnswer(null);
  }
}
