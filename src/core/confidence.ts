/**
 * How sure a mean is: the confidence interval of a mean over repeated measurements (Student's t),
 * the coefficient of variation, and Welch's test of two means with unequal variances, all at a
 * given confidence level (0.95: a 95% interval, a 5% two-sided test).
 */
import { mean } from './stats.js';
import { studentTQuantile } from './student-t.js';

/** The level intervals and tests take unless told otherwise: 95%. */
export const DEFAULT_CONFIDENCE_LEVEL = 0.95;

/** The sample standard deviation (n − 1 in the denominator); NaN for fewer than two values. */
export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return NaN;
  const average = mean(values);
  let squares = 0;
  for (const value of values) squares += (value - average) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

/** The two-sided critical value of Student's t at `level` (0.95 → the 97.5% quantile). */
export function tCritical(level: number, df: number): number {
  return studentTQuantile(1 - (1 - level) / 2, df);
}

/** A mean over repeated measurements, with how far the true mean may lie from it. */
export interface MeanInterval {
  count: number;
  mean: number;
  /** Half the width of the interval at the level asked for; null for fewer than two values (one value tells nothing of the spread). */
  halfWidth: number | null;
  /** Sample standard deviation over |mean| (0.01 = 1%); null for fewer than two values or a zero mean. */
  cv: number | null;
}

/** The mean of `values` with its Student's t interval at `level` and its coefficient of variation. */
export function meanInterval(values: readonly number[], level: number): MeanInterval {
  if (values.length === 0) throw new RangeError('meanInterval needs at least one value');
  const average = mean(values);
  if (values.length < 2) return { count: values.length, mean: average, halfWidth: null, cv: null };
  const sd = sampleStd(values);
  const halfWidth = tCritical(level, values.length - 1) * (sd / Math.sqrt(values.length));
  return { count: values.length, mean: average, halfWidth, cv: average === 0 ? null : sd / Math.abs(average) };
}

/** Welch's interval of mean(b) − mean(a) at a confidence level. */
export interface WelchInterval {
  difference: number;
  low: number;
  high: number;
  /** Welch–Satterthwaite degrees of freedom; Infinity when neither side varies. */
  df: number;
  /** True when the interval excludes zero: the difference is beyond the noise at this level. */
  beyondNoise: boolean;
}

/** Welch's interval for mean(b) − mean(a) at `level`; null when either side has fewer than two values. */
export function welchInterval(a: readonly number[], b: readonly number[], level: number): WelchInterval | null {
  if (a.length < 2 || b.length < 2) return null;
  const sa = sampleStd(a) ** 2 / a.length;
  const sb = sampleStd(b) ** 2 / b.length;
  const difference = mean(b) - mean(a);
  const se = Math.sqrt(sa + sb);
  // Neither side varies: any difference is beyond the noise, none is within it.
  if (se === 0) return { difference, low: difference, high: difference, df: Infinity, beyondNoise: difference !== 0 };
  const df = (sa + sb) ** 2 / ((sa * sa) / (a.length - 1) + (sb * sb) / (b.length - 1));
  const half = tCritical(level, df) * se;
  const low = difference - half;
  const high = difference + half;
  return { difference, low, high, df, beyondNoise: low > 0 || high < 0 };
}

/** A confidence level as people write it: 0.95 → `95%`, 0.995 → `99.5%`. */
export function formatConfidenceLevel(level: number): string {
  return `${Number((level * 100).toFixed(6))}%`;
}
