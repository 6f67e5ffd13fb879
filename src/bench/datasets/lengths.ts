/**
 * bench_serving's `compute_random_lens` (spec §3.1): integers uniform over [max(⌊L·r⌋, 1), L],
 * drawn from the global numpy stream so lengths match the Python tool seed for seed.
 */
import { UsageError } from '../../core/errors.js';
import type { NumpyRandomState } from '../../core/rng.js';

/** Option names used in error messages. */
export interface LengthOptionNames {
  length: string;
  ratio: string;
}

/**
 * `count` lengths for a full length `fullLen` and range ratio `rangeRatio`. r = 0 gives [1, L],
 * r = 1 gives exactly L; a ratio that puts the lower bound above L is a usage error
 * (numpy's `low >= high`).
 */
export function computeRandomLens(
  numpy: NumpyRandomState,
  fullLen: number,
  rangeRatio: number,
  count: number,
  names: LengthOptionNames,
): number[] {
  if (!Number.isInteger(fullLen) || fullLen < 1) {
    throw new UsageError(`${names.length} must be a positive integer, got ${fullLen}`);
  }
  if (!Number.isInteger(count) || count < 0) throw new UsageError(`the number of prompts must be ≥ 0, got ${count}`);
  if (Number.isNaN(rangeRatio)) throw new UsageError(`${names.ratio} must be a number between 0 and 1, got nan`);
  const low = Math.max(Math.trunc(fullLen * rangeRatio), 1);
  if (low > fullLen) {
    throw new UsageError(`${names.ratio} ${rangeRatio} puts the lower length bound above ${names.length} ${fullLen}: use a ratio between 0 and 1`);
  }
  return numpy.randint(low, fullLen + 1, count);
}

/** Sum of lengths as numpy prints `np.sum(list)`: an int, or `0.0` for an empty list. */
export function numpySumText(values: readonly number[]): string {
  if (values.length === 0) return '0.0';
  let total = 0;
  for (const v of values) total += v;
  return String(total);
}
