/**
 * Drives a sweep: one benchmark per load, over a series or an SLO knee search. How a load is
 * measured (a real server, the sim in real time, or a virtual-time prediction) is the caller's
 * `measureAt`; this module only decides which loads to visit and judges each point.
 */
import type { RepeatedRunsSummary, RequestOutput } from '../bench/index.js';
import type { MetricValue } from '../catalog/index.js';
import { computeGoodput, type Goodput } from './goodput.js';
import { searchKnee } from './knee-search.js';
import { nextLoad, type LoadKind, type LoadSeries } from './load-series.js';
import { measureFromOutputs } from './measures.js';
import { evaluateSlo, type Slo, type SloVerdict } from './slo.js';

/** What one benchmark at one load produced. */
export interface PointMeasurement {
  /** The result record, keyed like bench_serving's JSONL (`output_throughput`, `mean_tpot_ms`, ...). */
  metrics: Record<string, MetricValue>;
  outputs: readonly RequestOutput[];
  durationSeconds: number;
  /** Catalog id of the run, when it was recorded. */
  runId: string | null;
  /** Wall seconds per engine second of a time-scaled sim point; absent: real time (or a prediction). */
  simTimeScale?: number;
  /**
   * A point measured several times (`--num-runs`): `metrics` are the means over its runs, `outputs`
   * and `durationSeconds` pooled, and this the headline figures' intervals; `runId` is the first run's.
   */
  repeat?: RepeatedRunsSummary;
}

export interface SweepPoint extends PointMeasurement {
  load: number;
  /** The SLO verdict, when an SLO was given. */
  verdict: SloVerdict | null;
  goodput: Goodput | null;
}

export type MeasureAt = (load: number) => Promise<PointMeasurement>;

/** Called after every point, e.g. to print a progress line. */
export type PointListener = (point: SweepPoint) => void;

function failedRequests(outputs: readonly RequestOutput[]): number {
  let failed = 0;
  for (const output of outputs) if (!output.success) failed += 1;
  return failed;
}

/** Judges a measurement against the SLO (if any) and computes its goodput. */
export function judgePoint(load: number, measurement: PointMeasurement, slo: Slo | null): SweepPoint {
  if (slo === null) return { ...measurement, load, verdict: null, goodput: null };
  const verdict = evaluateSlo(slo, measureFromOutputs(measurement.outputs), failedRequests(measurement.outputs));
  const goodput = computeGoodput(measurement.outputs, slo, measurement.durationSeconds);
  return { ...measurement, load, verdict, goodput };
}

/** Output token throughput of a point (tok/s), 0 when the record lacks it. */
export function outputThroughput(point: PointMeasurement): number {
  const value = point.metrics.output_throughput;
  return typeof value === 'number' ? value : 0;
}

/** Runs every load of a series in order (an automatic series decides as it goes). */
export async function runSeries(series: LoadSeries, measureAt: MeasureAt, slo: Slo | null, onPoint?: PointListener): Promise<SweepPoint[]> {
  const points: SweepPoint[] = [];
  for (;;) {
    const load = nextLoad(series, points.map((point) => ({ load: point.load, outputThroughput: outputThroughput(point) })));
    if (load === undefined) return points;
    const point = judgePoint(load, await measureAt(load), slo);
    points.push(point);
    onPoint?.(point);
  }
}

export interface SloSearchOptions {
  kind: LoadKind;
  start: number;
  limit: number;
  tolerance: number;
}

export interface SloSearchOutcome {
  /** Every point measured, sorted by load. */
  points: SweepPoint[];
  /** The highest load meeting the SLO, or null when none did. */
  knee: SweepPoint | null;
  /** Benchmarks run. */
  runs: number;
}

/** Finds the highest load meeting the SLO with a doubling-then-bisection search. */
export async function runSloSearch(slo: Slo, measureAt: MeasureAt, options: SloSearchOptions, onPoint?: PointListener): Promise<SloSearchOutcome> {
  const result = await searchKnee({
    ...options,
    probe: async (load) => {
      const point = judgePoint(load, await measureAt(load), slo);
      onPoint?.(point);
      return { met: point.verdict?.met === true, point };
    },
  });
  const points = result.runs.map((run) => run.result.point).sort((a, b) => a.load - b.load);
  return { points, knee: result.best?.result.point ?? null, runs: result.runs.length };
}

/** The point with the highest output throughput (the peak of the curve). */
export function peakPoint(points: readonly SweepPoint[]): SweepPoint | undefined {
  let best: SweepPoint | undefined;
  for (const point of points) if (best === undefined || outputThroughput(point) > outputThroughput(best)) best = point;
  return best;
}

/** The highest load whose point met the SLO, or null. */
export function highestMeeting(points: readonly SweepPoint[]): SweepPoint | null {
  let best: SweepPoint | null = null;
  for (const point of points) if (point.verdict?.met && (best === null || point.load > best.load)) best = point;
  return best;
}
