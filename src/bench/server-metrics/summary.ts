/**
 * The server's side of a run from its `/metrics` readings: deltas of its counters and histograms
 * between the reading at the start of the measured window and the one at its end, and its gauges
 * over the readings taken in between. Times are in the server's time: the client's wall seconds
 * divided by the sim's time scale when bench drove a time-scaled sim (runner/time-scale.ts), which
 * is the time the sim's own metrics count in. A figure the readings cannot give is null. Pure.
 */
import { max, mean } from '../../core/stats.js';
import type { HistogramReading, MetricsDialect, ServerSnapshot } from './snapshot.js';

/** One reading: when it came back (client wall seconds) and what it said. */
export interface TimedSnapshot {
  at: number;
  snapshot: ServerSnapshot;
}

export interface GaugeSummary {
  mean: number;
  max: number;
}

/** The readings in between as series, for `plot --kind server`; `t` in server seconds from the first reading. */
export interface ServerMetricsSeries {
  t: number[];
  running: Array<number | null>;
  queued: Array<number | null>;
  kvUsage: Array<number | null>;
  /** Output tokens per second the server counted since the previous reading. */
  generationThroughput: Array<number | null>;
}

export interface ServerMetricsSummary {
  dialect: MetricsDialect;
  /** Server seconds from the first reading to the last. */
  windowS: number;
  /** Readings taken, and readings that failed during the run. */
  scrapes: number;
  failedScrapes: number;
  /** Prompt tokens served from the prefix cache over those looked up, in the window. */
  prefixCacheHitRate: number | null;
  /** The server's queueing time over the requests it queued in the window: mean from the histogram's sum, p99 interpolated in its buckets. */
  queueTime: { count: number; meanMs: number; p99Ms: number | null } | null;
  running: GaugeSummary | null;
  queued: GaugeSummary | null;
  kvUsage: GaugeSummary | null;
  /** Output tokens the server counted in the window, per second. */
  generationThroughput: number | null;
  /** Accepted tokens per verify pass: vLLM's counters in the window (1 + accepted / drafts), SGLang's gauge averaged over the readings. */
  specAcceptLength: number | null;
  series: ServerMetricsSeries;
}

function delta(end: number | null, start: number | null): number | null {
  return end === null || start === null ? null : end - start;
}

function gauge(values: ReadonlyArray<number | null>): GaugeSummary | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (present.length === 0) return null;
  return { mean: mean(present), max: max(present) };
}

/** The histogram of what was observed between two readings of it, or null when it was reset or one is missing. */
export function histogramDelta(end: HistogramReading | null, start: HistogramReading | null): HistogramReading | null {
  if (end === null || start === null || end.count < start.count) return null;
  const before = new Map(start.buckets.map((b) => [b.le, b.count]));
  const buckets = end.buckets.map((b) => ({ le: b.le, count: b.count - (before.get(b.le) ?? 0) }));
  return { buckets, sum: end.sum - start.sum, count: end.count - start.count };
}

/**
 * The q-quantile of a histogram as Prometheus's histogram_quantile computes it (linear within the
 * bucket it falls in); null when it falls in the `+Inf` bucket, whose width is unknown, or nothing was observed.
 */
export function histogramQuantile(q: number, histogram: HistogramReading): number | null {
  const { buckets } = histogram;
  const total = buckets.at(-1)?.count ?? 0;
  if (total <= 0) return null;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bucket of buckets) {
    if (bucket.count >= rank) {
      if (!Number.isFinite(bucket.le)) return null;
      const inBucket = bucket.count - below;
      return inBucket <= 0 ? bucket.le : lower + (bucket.le - lower) * ((rank - below) / inBucket);
    }
    lower = bucket.le;
    below = bucket.count;
  }
  return null;
}

function acceptLength(first: ServerSnapshot, last: ServerSnapshot, inside: readonly ServerSnapshot[]): number | null {
  const drafts = delta(last.specDrafts, first.specDrafts);
  const accepted = delta(last.specAccepted, first.specAccepted);
  if (drafts !== null && accepted !== null) return drafts > 0 ? 1 + accepted / drafts : null;
  // SGLang's gauge is its recent average; 0 means it has not measured one (no speculative decoding, or no verify pass yet).
  const readings = [...inside, last].map((s) => s.specAcceptLength).filter((v): v is number => v !== null && v > 0);
  return readings.length > 0 ? mean(readings) : null;
}

function series(readings: readonly TimedSnapshot[], timeScale: number): ServerMetricsSeries {
  const t0 = readings[0]!.at;
  const out: ServerMetricsSeries = { t: [], running: [], queued: [], kvUsage: [], generationThroughput: [] };
  readings.forEach((reading, i) => {
    const { snapshot } = reading;
    out.t.push((reading.at - t0) / timeScale);
    out.running.push(snapshot.running);
    out.queued.push(snapshot.queued);
    out.kvUsage.push(snapshot.kvUsage);
    const previous = readings[i - 1];
    const tokens = previous === undefined ? null : delta(snapshot.generationTokens, previous.snapshot.generationTokens);
    const seconds = previous === undefined ? 0 : (reading.at - previous.at) / timeScale;
    out.generationThroughput.push(tokens !== null && seconds > 0 ? tokens / seconds : null);
  });
  return out;
}

/**
 * The summary of a run's readings (in the order taken: the start, those in between, the end);
 * null with fewer than two readings or when they are of different engines.
 */
export function summarizeServerMetrics(readings: readonly TimedSnapshot[], failedScrapes: number, timeScale = 1): ServerMetricsSummary | null {
  if (readings.length < 2) return null;
  const first = readings[0]!;
  const last = readings.at(-1)!;
  const dialect = first.snapshot.dialect;
  if (readings.some((r) => r.snapshot.dialect !== dialect)) return null;
  const inside = readings.slice(1, -1).map((r) => r.snapshot);
  const windowS = (last.at - first.at) / timeScale;
  const queries = delta(last.snapshot.cacheQueries, first.snapshot.cacheQueries);
  const hits = delta(last.snapshot.cacheHits, first.snapshot.cacheHits);
  const queue = histogramDelta(last.snapshot.queueTime, first.snapshot.queueTime);
  const generated = delta(last.snapshot.generationTokens, first.snapshot.generationTokens);
  return {
    dialect,
    windowS,
    scrapes: readings.length,
    failedScrapes,
    prefixCacheHitRate: queries !== null && hits !== null && queries > 0 ? hits / queries : null,
    queueTime:
      queue === null || queue.count <= 0
        ? null
        : { count: queue.count, meanMs: (queue.sum / queue.count) * 1000, p99Ms: nullableMs(histogramQuantile(0.99, queue)) },
    running: gauge(inside.map((s) => s.running)),
    queued: gauge(inside.map((s) => s.queued)),
    kvUsage: gauge(inside.map((s) => s.kvUsage)),
    generationThroughput: generated !== null && windowS > 0 ? generated / windowS : null,
    specAcceptLength: acceptLength(first.snapshot, last.snapshot, inside),
    series: series(readings, timeScale),
  };
}

function nullableMs(seconds: number | null): number | null {
  return seconds === null ? null : seconds * 1000;
}
