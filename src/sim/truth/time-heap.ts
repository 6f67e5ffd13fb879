/**
 * A binary min-heap of items keyed by time; ties leave in insertion order, so emissions of one
 * instant keep the order the engine produced them in.
 */
export class TimeHeap<T> {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly items: T[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  /** Time of the earliest item, or undefined when empty. */
  peekTime(): number | undefined {
    return this.times[0];
  }

  /** The earliest item without removing it. */
  peekFirst(): T | undefined {
    return this.items[0];
  }

  push(time: number, item: T): void {
    this.times.push(time);
    this.seqs.push(this.seq++);
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  /** Removes and returns the earliest item. */
  pop(): T | undefined {
    const n = this.items.length;
    if (n === 0) return undefined;
    const top = this.items[0]!;
    this.swap(0, n - 1);
    this.times.pop();
    this.seqs.pop();
    this.items.pop();
    if (n > 1) this.down(0);
    return top;
  }

  private less(i: number, j: number): boolean {
    const ti = this.times[i]!;
    const tj = this.times[j]!;
    return ti < tj || (ti === tj && this.seqs[i]! < this.seqs[j]!);
  }

  // Plain temporaries, not destructuring: a swap runs ~log2(n) times per push/pop on the streaming
  // hot path, and each destructuring swap may allocate a short-lived array.
  private swap(i: number, j: number): void {
    const time = this.times[i]!;
    this.times[i] = this.times[j]!;
    this.times[j] = time;
    const seq = this.seqs[i]!;
    this.seqs[i] = this.seqs[j]!;
    this.seqs[j] = seq;
    const item = this.items[i]!;
    this.items[i] = this.items[j]!;
    this.items[j] = item;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < n && this.less(l, best)) best = l;
      if (r < n && this.less(r, best)) best = r;
      if (best === i) return;
      this.swap(i, best);
      i = best;
    }
  }
}
