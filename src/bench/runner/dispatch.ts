/**
 * Releases scheduled requests at their absolute offsets from the run start, behind the FIFO
 * concurrency limit, until the schedule ends or a stop signal (Ctrl-C, SIGTERM, SIGHUP) stops it.
 * After the signal nothing new is sent (queued requests are dropped) and in-flight ones get a grace
 * period before being aborted.
 *
 * A request with a free slot goes out synchronously, in schedule order. When many are due at once
 * (`--request-rate inf`: the whole first wave), the loop hands control back to the event loop every
 * half millisecond, so responses that arrive meanwhile are read and stamped on time instead of
 * waiting for the last of thousands of sends.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { MAX_TIMER_SECONDS } from '../../core/flag-range.js';
import { nowSeconds } from '../transport/clock.js';
import type { RequestOutput } from '../types.js';
import { signalName, type InterruptWatch } from './interrupt.js';
import type { ScheduledRequest } from './schedule.js';
import { FifoSemaphore } from './semaphore.js';
import type { Release } from './send-request.js';

/** Longest run of back-to-back sends before reads get their turn (s). */
const SEND_SLICE_SECONDS = 0.0005;

/** What a stop signal acts on: the transfers in flight (this thread's HttpPool, or the load workers). */
export interface InFlightTransfers {
  readonly inFlight: number;
  abortAll(message: string): void;
}

export interface DispatchOptions {
  schedule: readonly ScheduledRequest[];
  /** Sends one scheduled request; the release says when it was due and how long it waited for a concurrency slot. */
  send(item: ScheduledRequest, release: Release): Promise<RequestOutput[]>;
  maxConcurrency: number | null;
  transfers: InFlightTransfers;
  /** The stop signals of the run; the caller owns it, since saving the results outlasts dispatch. */
  interrupts: InterruptWatch;
  graceSeconds: number;
  /** Called once per finished (or dropped) request. */
  onDone(): void;
  notice(line: string): void;
  /** Run-clock seconds of the run's start (a sharded run's agreed instant); default: now. */
  startAt?: number;
}

export interface DispatchResult {
  /** Run-clock seconds of the run's start, from which every request's send time counts. */
  start: number;
  /** Per schedule item that was sent, in schedule order: its index and outputs. */
  sent: Array<{ index: number; outputs: RequestOutput[] }>;
}

/** Runs the schedule to completion (or until a stop signal). */
export async function dispatchSchedule(options: DispatchOptions): Promise<DispatchResult> {
  const { schedule, transfers } = options;
  const semaphore = options.maxConcurrency ? new FifoSemaphore(options.maxConcurrency) : null;
  let stopped = false;
  let wake: () => void = () => {};
  let graceTimer: NodeJS.Timeout | null = null;
  const unsubscribe = options.interrupts.onStop((signal) => {
    stopped = true;
    wake();
    const name = signalName(signal);
    options.notice(
      `Interrupted by ${name}: sending no new requests; waiting up to ${options.graceSeconds} s for ${transfers.inFlight} in-flight requests (${name} again to exit now)`,
    );
    graceTimer = setTimeout(() => transfers.abortAll(`aborted: interrupted by ${name}`), options.graceSeconds * 1000);
  });

  const sendHolding = async (item: ScheduledRequest, release: Release): Promise<RequestOutput[] | null> => {
    try {
      return stopped ? null : await options.send(item, release);
    } finally {
      semaphore?.release();
      options.onDone();
    }
  };
  /** Sends `item` now when a slot is free (due at its scheduled time), else when one comes free (due then). */
  const release = (item: ScheduledRequest): Promise<RequestOutput[] | null> => {
    if (semaphore === null || semaphore.tryAcquire()) return sendHolding(item, { queueTime: 0, dueAt: start + item.sendAt });
    const arrived = nowSeconds();
    return semaphore.acquire().then(() => {
      const now = nowSeconds();
      return sendHolding(item, { queueTime: now - arrived, dueAt: now });
    });
  };

  // Timers run on libuv's millisecond loop clock and may fire up to 1 ms early: wait again until
  // the precise clock has reached the send time. A stop signal ends the wait at once. A wait longer
  // than a timer can take (a very low --request-rate) is taken in steps, not as an overflow warning.
  const waitUntil = async (due: number): Promise<void> => {
    let waitMs = (due - nowSeconds()) * 1000;
    while (waitMs > 0 && !stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(MAX_TIMER_SECONDS * 1000, Math.max(1, waitMs)));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      waitMs = (due - nowSeconds()) * 1000;
    }
  };

  const start = options.startAt ?? nowSeconds();
  try {
    const tasks: Array<Promise<RequestOutput[] | null>> = [];
    let sliceStart = start;
    for (const item of schedule) {
      const due = start + item.sendAt;
      if (due > nowSeconds()) {
        await waitUntil(due);
        sliceStart = nowSeconds();
      }
      if (stopped) break;
      tasks.push(release(item));
      if (nowSeconds() - sliceStart >= SEND_SLICE_SECONDS) {
        await yieldToEventLoop();
        sliceStart = nowSeconds();
      }
    }
    const results = await Promise.all(tasks);
    const sent: DispatchResult['sent'] = [];
    results.forEach((outputs, index) => {
      if (outputs !== null) sent.push({ index, outputs });
    });
    return { start, sent };
  } finally {
    if (graceTimer !== null) clearTimeout(graceTimer);
    unsubscribe();
  }
}
