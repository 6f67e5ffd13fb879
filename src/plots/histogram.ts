/**
 * Latency distributions as histograms with "nice" bin widths (1, 2 or 5 × 10^k), so bin edges
 * read as round numbers on the axis. The bins span the samples up to a high percentile; the rare
 * slow tail beyond it is counted in one overflow bin, so a few stalls do not squeeze the body of
 * the distribution into a single bar.
 */
import { percentileOfSorted, sortAscending } from '../core/stats.js';
import type { TimedRequest } from '../bench/index.js';

export interface Histogram {
  /** Left edge of the first bin. */
  start: number;
  binWidth: number;
  /** Samples per bin; bin `i` covers [start + i·binWidth, start + (i+1)·binWidth). */
  counts: number[];
  /** Samples at or beyond the end of the last bin (start + counts.length·binWidth). */
  overflow: number;
  /** Number of samples binned. */
  total: number;
}

/** The smallest of 1, 2, 5 × 10^k that is at least `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough * (1 - 1e-12));
  return step ?? 10 * magnitude;
}

/**
 * Bins finite samples into about `targetBins` bins of a nice width, starting at a multiple of the
 * width and reaching the `spanPercentile`-th percentile; larger samples count as overflow.
 * Empty histogram (no bins) for no samples.
 */
export function histogram(samples: readonly number[], targetBins = 40, spanPercentile = 99): Histogram {
  const values = sortAscending(samples.filter((v) => Number.isFinite(v)));
  if (values.length === 0) return { start: 0, binWidth: 1, counts: [], overflow: 0, total: 0 };
  const lo = values[0]!;
  const hi = percentileOfSorted(values, spanPercentile);
  const binWidth = niceStep((hi - lo) / Math.max(1, targetBins));
  const start = Math.floor(lo / binWidth) * binWidth;
  const binCount = Math.max(1, Math.floor((hi - start) / binWidth) + 1);
  const counts = new Array<number>(binCount).fill(0);
  let overflow = 0;
  for (const v of values) {
    const bin = Math.floor((v - start) / binWidth);
    if (bin < binCount) counts[bin]! += 1;
    else overflow += 1;
  }
  return { start, binWidth, counts, overflow, total: values.length };
}

/** Every inter-token latency of the successful requests, in milliseconds. */
export function itlSamplesMs(requests: readonly TimedRequest[]): number[] {
  const out: number[] = [];
  for (const r of requests) if (r.success) for (const gap of r.itl) out.push(gap * 1000);
  return out;
}
