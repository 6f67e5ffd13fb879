/**
 * Drives a pure Engine in wall time: one timer for the next thing due (an engine event or a
 * staggered emission), `advanceTo(now)` when it fires, and every emission handed to its request's
 * sink at its due time. All emissions due at one instant are delivered in one timer callback, and
 * a request's emissions due in the same callback one after another (see EmissionSink).
 */
import type { Engine, SimRequest, TokenEmission } from '../types.js';
import { TimeHeap } from '../truth/time-heap.js';
import type { EngineClock } from './engine-clock.js';

/** Receives a request's emissions as they fall due. */
export interface EmissionSink {
  /**
   * One emission. `more` is true when further emissions of the same request are due in the same
   * pass (the server fell behind): a stream writes them together, in one write, as SGLang's
   * tokenizer manager merges the outputs a slow consumer left queued. Each write is a system call
   * (~12 µs on loopback); writing them one by one would make a late server later still.
   */
  deliver(emission: TokenEmission, more: boolean): void;
}

/**
 * Called for every delivered emission with its times on the shared clock (ms): when it was due,
 * when its delivery began (`actualHrMs`) and when the write carrying it had returned
 * (`writtenHrMs`): a client can have the bytes from somewhere between the two.
 */
export type DeliveryObserver = (emission: TokenEmission, dueHrMs: number, actualHrMs: number, writtenHrMs: number) => void;

/**
 * Node timers fire on whole loop-clock milliseconds, so a wait shorter than this is slept precisely
 * on a futex (`Atomics.wait`, no CPU burnt) and finished on the next loop turn, after pending I/O,
 * instead of a timer that could fire 1 ms late.
 */
const SLEEP_BELOW_MS = 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export class EngineDriver {
  private readonly sinks = new Map<string, EmissionSink>();
  private readonly pending = new TimeHeap<TokenEmission>();
  /** This pass's due emissions by request, in order of first appearance; one emission or several. Reused. */
  private readonly due = new Map<string, TokenEmission | TokenEmission[]>();
  /** The group being delivered, observed once its write has returned (deliverTogether). Reused. */
  private readonly heldEmissions: TokenEmission[] = [];
  private readonly heldActualMs: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private readonly onFire = (): void => {
    this.timer = null;
    this.immediate = null;
    this.pump();
  };

  constructor(
    readonly engine: Engine,
    readonly clock: EngineClock,
    private readonly observer: DeliveryObserver | null = null,
  ) {}

  /** Hands a request to the engine; its emissions go to `sink` until it finishes or is aborted. */
  submit(request: SimRequest, sink: EmissionSink): void {
    this.sinks.set(request.id, sink);
    this.engine.submit(request);
    this.pump();
  }

  /** Frees a request's batch slot and KV at once (client gone); nothing more is delivered to it. */
  abort(requestId: string): void {
    if (!this.sinks.delete(requestId)) return;
    this.engine.abort(requestId, this.clock.now());
    this.reschedule();
  }

  /** Whether a request with this id is still running. */
  isActive(requestId: string): boolean {
    return this.sinks.has(requestId);
  }

  /** Number of requests whose sinks still wait for emissions. */
  get activeRequests(): number {
    return this.sinks.size;
  }

  /** Runs the engine `timeScale` wall seconds per engine second from now on (see EngineClock.rescale). */
  setTimeScale(timeScale: number): void {
    this.clock.rescale(timeScale);
    this.reschedule();
  }

  /** Stops the timer (server shutdown). */
  stop(): void {
    this.clearTimer();
  }

  private pump(): void {
    const now = this.clock.now();
    const next = this.engine.nextEventTime();
    if (next !== undefined && next <= now) {
      // Emissions come in time order: those already due join this pass unless earlier ones wait.
      for (const emission of this.engine.advanceTo(now)) {
        if (emission.time <= now && this.pending.size === 0) this.collect(emission);
        else this.pending.push(emission.time, emission);
      }
    }
    while (this.pending.size > 0 && this.pending.peekTime()! <= now) this.collect(this.pending.pop()!);
    for (const group of this.due.values()) {
      if (!Array.isArray(group)) this.deliverOne(group);
      else this.deliverTogether(group);
    }
    this.due.clear();
    this.reschedule();
  }

  private collect(emission: TokenEmission): void {
    const group = this.due.get(emission.requestId);
    if (group === undefined) this.due.set(emission.requestId, emission);
    else if (Array.isArray(group)) group.push(emission);
    else this.due.set(emission.requestId, [group, emission]);
  }

  /** Hands `emission` to its request's sink; false when the request is gone. */
  private deliver(emission: TokenEmission, more: boolean): boolean {
    const sink = this.sinks.get(emission.requestId);
    if (sink === undefined) return false;
    if (emission.finished) this.sinks.delete(emission.requestId);
    sink.deliver(emission, more);
    return true;
  }

  private deliverOne(emission: TokenEmission): void {
    const actualHrMs = this.observer === null ? 0 : this.clock.hrNowMs();
    if (this.deliver(emission, false) && this.observer !== null) {
      this.observer(emission, this.clock.toHrMs(emission.time), actualHrMs, this.clock.hrNowMs());
    }
  }

  /** Emissions of one request due in one pass: the last delivery writes them all, so they share its write's end. */
  private deliverTogether(group: readonly TokenEmission[]): void {
    for (let i = 0; i < group.length; i++) {
      const actualHrMs = this.observer === null ? 0 : this.clock.hrNowMs();
      if (!this.deliver(group[i]!, i < group.length - 1) || this.observer === null) continue;
      this.heldEmissions.push(group[i]!);
      this.heldActualMs.push(actualHrMs);
    }
    if (this.heldEmissions.length === 0) return;
    const writtenHrMs = this.clock.hrNowMs();
    for (let i = 0; i < this.heldEmissions.length; i++) {
      const emission = this.heldEmissions[i]!;
      this.observer!(emission, this.clock.toHrMs(emission.time), this.heldActualMs[i]!, writtenHrMs);
    }
    this.heldEmissions.length = 0;
    this.heldActualMs.length = 0;
  }

  private reschedule(): void {
    this.clearTimer();
    const engineNext = this.engine.nextEventTime();
    const pendingNext = this.pending.peekTime();
    const next =
      engineNext === undefined ? pendingNext : pendingNext === undefined ? engineNext : Math.min(engineNext, pendingNext);
    if (next === undefined) return;
    const waitMs = this.clock.wallMsUntil(next);
    if (waitMs < SLEEP_BELOW_MS) {
      if (waitMs > 0) Atomics.wait(sleeper, 0, 0, waitMs);
      this.immediate = setImmediate(this.onFire);
    }
    else this.timer = setTimeout(this.onFire, Math.floor(waitMs));
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }
}
