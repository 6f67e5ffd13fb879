/**
 * Write lateness of a whole run in constant memory (pure). Keeping every value cost 8 bytes a chunk
 * on the sim's thread: a long `bench --sim` run of 100 million chunks would hold 800 MB just to print
 * three figures. Buckets are 0.2 % wide on a log scale (1 ns to 1,000 s), so p50 and p99 come out
 * within 0.1 % of numpy's interpolated percentiles; the maximum is kept exactly.
 */
import type { LatenessSummary } from './lateness-verdict.js';

/** Bucket i holds lateness in [expm1(i / 500), expm1((i + 1) / 500)) µs: each 0.2 % wide. */
const BUCKETS_PER_NEPER = 500;
const LARGEST_MICROSECONDS = 1e9;
const LAST_BUCKET = Math.ceil(Math.log1p(LARGEST_MICROSECONDS) * BUCKETS_PER_NEPER);

function bucketOf(latenessMs: number): number {
  const microseconds = latenessMs > 0 ? latenessMs * 1000 : 0;
  return Math.min(LAST_BUCKET, Math.floor(Math.log1p(microseconds) * BUCKETS_PER_NEPER));
}

/** The bucket's geometric middle, in ms. */
function middleOf(bucket: number): number {
  return Math.expm1((bucket + 0.5) / BUCKETS_PER_NEPER) / 1000;
}

export class LatenessHistogram {
  private readonly counts = new Float64Array(LAST_BUCKET + 1);
  private chunks = 0;
  private maxMs = -Infinity;

  add(latenessMs: number): void {
    this.counts[bucketOf(latenessMs)]! += 1;
    this.chunks += 1;
    if (latenessMs > this.maxMs) this.maxMs = latenessMs;
  }

  clear(): void {
    this.counts.fill(0);
    this.chunks = 0;
    this.maxMs = -Infinity;
  }

  summary(): LatenessSummary {
    if (this.chunks === 0) return { chunks: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 };
    return { chunks: this.chunks, p50Ms: this.percentile(50), p99Ms: this.percentile(99), maxMs: this.maxMs };
  }

  /** As numpy's default: linear between the two order statistics around rank p/100 · (n − 1). */
  private percentile(p: number): number {
    const rank = (p / 100) * (this.chunks - 1);
    const below = this.orderStatistic(Math.floor(rank));
    const above = this.orderStatistic(Math.ceil(rank));
    return below + (rank - Math.floor(rank)) * (above - below);
  }

  /** The k-th smallest value (0-based), as its bucket's middle, never above the maximum. */
  private orderStatistic(k: number): number {
    let seen = 0;
    for (let bucket = 0; bucket <= LAST_BUCKET; bucket++) {
      seen += this.counts[bucket]!;
      if (seen > k) return Math.min(middleOf(bucket), this.maxMs);
    }
    return this.maxMs;
  }
}
