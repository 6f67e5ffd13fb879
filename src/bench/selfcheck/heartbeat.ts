/**
 * How late can a read stamp be? A 1 ms timer on the stamping thread ("heartbeat") answers it for
 * every read, at the cost of one subtraction.
 *
 * Why the second-to-last beat: data that reached the socket before a beat at `f` is picked up by
 * the poll phase of that same loop iteration (libuv runs timers, then polls), so it is stamped
 * before the next beat. A read stamped at `now`, after the last beat `f_k`, therefore arrived
 * after the beat before it, `f_(k-1)`: its stamp is late by at most `now - f_(k-1)`. The bound
 * holds whatever delayed the loop: a long callback, GC, or the thread not being scheduled at all
 * (which delays the beats too). When the loop is calm it is 1–3 ms (timers tick on libuv's
 * millisecond clock); after a stall it grows by the stall, for exactly the reads the stall delayed.
 */
import { nowSeconds } from '../transport/clock.js';

const BEAT_MS = 1;

class Heartbeat {
  private timer: NodeJS.Timeout | null = null;
  private lastBeat = 0;
  private beatBefore = 0;

  get running(): boolean {
    return this.timer !== null;
  }

  /** Starts beating on this thread (again from scratch if it was already). */
  start(): void {
    this.stop();
    this.lastBeat = this.beatBefore = nowSeconds();
    this.timer = setInterval(() => this.beat(), BEAT_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** The most by which a read stamped at `now` can be late, in seconds; null when not beating. */
  stampLatenessBound(now: number): number | null {
    return this.timer === null ? null : now - this.beatBefore;
  }

  private beat(): void {
    this.beatBefore = this.lastBeat;
    this.lastBeat = nowSeconds();
  }
}

/** This thread's heartbeat (module state is per thread: each worker has its own). */
export const loopHeartbeat = new Heartbeat();
