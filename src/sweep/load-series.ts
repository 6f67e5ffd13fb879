/**
 * The loads a sweep visits: a list (`1,2,4`), a range (`1:64:x2` geometric, `1:64:+8` arithmetic)
 * or `auto` (doubling until throughput stops growing). Concurrency is an integer; a request rate
 * is any positive number, and `inf` (all requests at once) may close a list.
 */
import { UsageError } from '../core/errors.js';
import { AT_LEAST_ONE, parseFlagNumber } from '../core/flag-range.js';

export type LoadKind = 'concurrency' | 'rate';

export type LoadSeries =
  | { mode: 'fixed'; values: number[] }
  | { mode: 'auto'; start: number; factor: number; limit: number };

/** `auto` stops once a doubling adds less than this share of output throughput. */
export const SATURATION_GAIN = 0.05;
/** Default ceiling of an automatic series. */
export const AUTO_LIMIT: Record<LoadKind, number> = { concurrency: 4096, rate: 4096 };
/** A range may not expand to more points than this (a typo such as `1:100000:+1` would run for days). */
const MAX_POINTS = 200;

function flagName(kind: LoadKind): string {
  return kind === 'concurrency' ? '--concurrency' : '--request-rate';
}

/** One load of a series: a whole concurrency ≥ 1, or a positive rate (`inf`, all at once, where a list allows it). */
function parseLoadValue(text: string, kind: LoadKind, allowInfinity: boolean): number {
  if (kind === 'concurrency') return parseFlagNumber(flagName(kind), text, 'int', AT_LEAST_ONE);
  return parseFlagNumber(flagName(kind), text, 'float', allowInfinity ? { above: 0, max: Infinity } : { above: 0 });
}

function expandRange(text: string, kind: LoadKind): number[] {
  const [startText, endText, stepText = 'x2', ...rest] = text.split(':');
  if (rest.length > 0 || startText === undefined || endText === undefined) {
    throw new UsageError(`${flagName(kind)}: '${text}' is not a range; write START:END:xFACTOR or START:END:+STEP`);
  }
  const start = parseLoadValue(startText, kind, false);
  const end = parseLoadValue(endText, kind, false);
  if (end < start) throw new UsageError(`${flagName(kind)}: range '${text}' ends below its start; swap the bounds`);
  const stepMatch = /^([x*+])(\d+(?:\.\d+)?)$/.exec(stepText.trim());
  const step = stepMatch ? Number(stepMatch[2]) : Number.NaN;
  const geometric = stepMatch?.[1] !== '+';
  if (!stepMatch || (geometric ? !(step > 1) : !(step > 0)) || (kind === 'concurrency' && !geometric && !Number.isInteger(step))) {
    throw new UsageError(`${flagName(kind)}: step '${stepText}' in '${text}' must be xFACTOR (factor > 1) or +STEP (step > 0)`);
  }
  const values: number[] = [];
  // A small epsilon keeps 0.1-steps from missing the end through rounding.
  for (let value = start; value <= end * (1 + 1e-9); value = geometric ? value * step : value + step) {
    const point = kind === 'concurrency' ? Math.round(value) : Number(value.toPrecision(12));
    if (values[values.length - 1] !== point) values.push(point);
    if (values.length > MAX_POINTS) throw new UsageError(`${flagName(kind)}: '${text}' expands to more than ${MAX_POINTS} points; use a coarser step`);
  }
  return values;
}

/** Parses a sweep's load specification. */
export function parseLoadSeries(text: string, kind: LoadKind): LoadSeries {
  const trimmed = text.trim();
  const autoMatch = /^auto(?::(.+))?$/.exec(trimmed);
  if (autoMatch) {
    const limit = autoMatch[1] === undefined ? AUTO_LIMIT[kind] : parseLoadValue(autoMatch[1], kind, false);
    return { mode: 'auto', start: 1, factor: 2, limit };
  }
  if (trimmed.includes(':')) return { mode: 'fixed', values: expandRange(trimmed, kind) };
  const values = trimmed.split(',').map((item) => parseLoadValue(item, kind, true));
  const infiniteIndex = values.indexOf(Number.POSITIVE_INFINITY);
  if (infiniteIndex >= 0 && infiniteIndex !== values.length - 1) {
    throw new UsageError(`${flagName(kind)}: 'inf' must be the last rate of the list`);
  }
  for (let i = 1; i < values.length; i += 1) {
    if ((values[i] as number) <= (values[i - 1] as number)) {
      throw new UsageError(`${flagName(kind)}: loads must increase ('${trimmed}'); list them in ascending order`);
    }
  }
  return { mode: 'fixed', values };
}

/** A load and the output throughput measured there, as the automatic series sees it. */
export interface ThroughputPoint {
  load: number;
  outputThroughput: number;
}

/**
 * The next load of a series after the points measured so far, or undefined when the series is
 * done: a fixed list runs out; an automatic one stops at its limit or once the last step gained
 * less than `SATURATION_GAIN` throughput (the server is saturated, more load only adds queueing).
 */
export function nextLoad(series: LoadSeries, measured: readonly ThroughputPoint[]): number | undefined {
  if (series.mode === 'fixed') return series.values[measured.length];
  const last = measured[measured.length - 1];
  if (last === undefined) return Math.min(series.start, series.limit);
  const previous = measured[measured.length - 2];
  if (previous !== undefined && last.outputThroughput < previous.outputThroughput * (1 + SATURATION_GAIN)) return undefined;
  if (last.load >= series.limit) return undefined;
  return Math.min(last.load * series.factor, series.limit);
}

/** Formats a load for tables and labels: `inf`, `16`, `2.5`. */
export function formatLoad(load: number): string {
  return Number.isFinite(load) ? String(load) : 'inf';
}
