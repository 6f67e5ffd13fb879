/**
 * A FIFO counting semaphore (asyncio.Semaphore's fairness): waiters get slots in arrival order.
 */

export class FifoSemaphore {
  private available: number;
  private readonly waiters: Array<() => void> = [];
  private head = 0;

  constructor(slots: number) {
    this.available = slots;
  }

  /** Takes a slot now if one is free and nobody waits for one; release it with {@link release}. */
  tryAcquire(): boolean {
    if (this.available === 0 || this.head !== this.waiters.length) return false;
    this.available--;
    return true;
  }

  /** Resolves when a slot is held; release it with {@link release}. */
  acquire(): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Hands the slot to the oldest waiter, or returns it to the pool. */
  release(): void {
    if (this.head < this.waiters.length) {
      const next = this.waiters[this.head]!;
      this.waiters[this.head++] = noop;
      if (this.head === this.waiters.length) {
        this.waiters.length = 0;
        this.head = 0;
      }
      next();
      return;
    }
    this.available++;
  }
}

function noop(): void {}
