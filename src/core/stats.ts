/**
 * NumPy-equal statistics over float64 lists (bench_serving computes its metrics with numpy).
 * Equal to the last bit, not only approximately: numpy sums with 8-way pairwise summation, takes
 * the median as the mean of the two middle values, and interpolates percentiles with its own
 * `_lerp` form. All functions expect a non-empty list; callers mirror bench_serving's `list or 0`
 * with {@link orZero}.
 */

/** numpy's block size below which pairwise summation runs 8 interleaved accumulators. */
const PAIRWISE_BLOCK = 128;

function pairwiseSum(values: ArrayLike<number>, start: number, count: number): number {
  if (count < 8) {
    let sum = -0.0;
    for (let i = 0; i < count; i += 1) sum += values[start + i] as number;
    return sum;
  }
  if (count <= PAIRWISE_BLOCK) {
    const r = new Float64Array(8);
    for (let j = 0; j < 8; j += 1) r[j] = values[start + j] as number;
    let i = 8;
    for (; i < count - (count % 8); i += 8) {
      for (let j = 0; j < 8; j += 1) r[j] += values[start + i + j] as number;
    }
    let sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < count; i += 1) sum += values[start + i] as number;
    return sum;
  }
  let half = Math.floor(count / 2);
  half -= half % 8;
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, count - half);
}

/** `[0]` for an empty list: bench_serving's `np.mean(xs or 0)` idiom, which yields 0 for every statistic. */
export function orZero(values: readonly number[]): readonly number[] {
  return values.length === 0 ? [0] : values;
}

/** `np.sum(values)` (pairwise summation). */
export function sum(values: ArrayLike<number>): number {
  return 0.0 + pairwiseSum(values, 0, values.length);
}

/** `np.mean(values)`. */
export function mean(values: ArrayLike<number>): number {
  return sum(values) / values.length;
}

/** `np.std(values)` with ddof 0 (population standard deviation). */
export function std(values: ArrayLike<number>): number {
  const average = mean(values);
  const squares = new Float64Array(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const deviation = (values[i] as number) - average;
    squares[i] = deviation * deviation;
  }
  return Math.sqrt(sum(squares) / values.length);
}

/** The values sorted ascending (NaN last), for the `…OfSorted` functions: sort once, read many statistics. */
export function sortAscending(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** `np.median` of an ascending list: the middle value, or the mean of the two middle values for an even count. */
export function medianOfSorted(sorted: ArrayLike<number>): number {
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] as number;
  return ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * `np.percentile` of an ascending list with the default linear method: virtual index
 * `(n-1)·p/100`, then `a + (b−a)·t`, or `b − (b−a)·(1−t)` when `t ≥ 0.5`, exactly as numpy's `_lerp`.
 */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const last = sorted.length - 1;
  const virtualIndex = last * (p / 100);
  if (virtualIndex >= last) return sorted[last] as number;
  if (virtualIndex < 0) return sorted[0] as number;
  const below = Math.floor(virtualIndex);
  const t = virtualIndex - below;
  const a = sorted[below] as number;
  const b = sorted[below + 1] as number;
  const difference = b - a;
  return t >= 0.5 ? b - difference * (1 - t) : a + difference * t;
}

/** `np.median(values)`. */
export function median(values: ArrayLike<number>): number {
  return medianOfSorted(sortAscending(values));
}

/** `np.percentile(values, p)` (linear interpolation). */
export function percentile(values: ArrayLike<number>, p: number): number {
  return percentileOfSorted(sortAscending(values), p);
}

/** `np.max(values)`. */
export function max(values: ArrayLike<number>): number {
  let largest = -Infinity;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] as number;
    if (value > largest || Number.isNaN(value)) largest = value;
    if (Number.isNaN(largest)) break;
  }
  return largest;
}
