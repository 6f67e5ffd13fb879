/**
 * Physical bounds of what a bench run can measure. A file may state anything (`completed` 1e308,
 * TPOT -inf, concurrency 1e23); a value no run can produce is stored as null ("not measured"),
 * never as a figure tables, plots and comparisons would treat as true, and the run gets one
 * warning naming each such field with the value the file stated.
 *
 * The bounds are generous on purpose: they reject what cannot be, not what is merely unusual.
 * - times (`*_ms`, `duration`): finite, not negative, at most a year;
 * - counts (`completed`, `failed*`, `total_*tokens*`, `max_concurrent_requests`, ...): whole
 *   numbers from 0 to 1e15, far past any run (a million requests of a million tokens is 1e12);
 * - rates and means of counts (throughputs, `concurrency`, `accept_length`): finite, 0 to 1e15;
 * - request rates (requested, achieved): not negative, Infinity allowed (all sent at once);
 * - any other number: not NaN or infinite.
 * Every rule rejects NaN, as every comparison with NaN is false.
 */
import type { MetricValue, RequestRecord } from '../types.js';

const YEAR_S = 365 * 24 * 3600;
const MAX_AMOUNT = 1e15;

interface Bound {
  /** What the value must be, for the warning: "a whole number from 0 to 1e15". */
  rule: string;
  holds: (value: number) => boolean;
}

const wholeCount: Bound = { rule: 'a whole number from 0 to 1e15', holds: (v) => Number.isInteger(v) && v >= 0 && v <= MAX_AMOUNT };
const amount: Bound = { rule: 'from 0 to 1e15', holds: (v) => v >= 0 && v <= MAX_AMOUNT };
const requestRate: Bound = { rule: 'not negative (inf allowed)', holds: (v) => v >= 0 };
const seconds: Bound = { rule: 'a time from 0 to a year', holds: (v) => v >= 0 && v <= YEAR_S };
const milliseconds: Bound = { rule: 'a time from 0 to a year', holds: (v) => v >= 0 && v <= YEAR_S * 1000 };
const finite: Bound = { rule: 'a finite number', holds: Number.isFinite };

const COUNT_KEYS = /^(completed|failed(_\w+)?|total_\w*tokens\w*|max_concurrent_requests|max_concurrency|num_prompts|count_\w+)$/;
const AMOUNT_KEYS = /(_throughput(_\w+)?|_goodput|_per_s)$|^(concurrency|accept_length)$/;

function boundFor(key: string): Bound {
  if (key === 'request_rate' || key.endsWith('_request_rate')) return requestRate;
  if (key === 'duration') return seconds;
  if (key.endsWith('_ms') && !key.startsWith('count_')) return milliseconds;
  if (COUNT_KEYS.test(key)) return wholeCount;
  if (AMOUNT_KEYS.test(key)) return amount;
  return finite;
}

/** A number as the warning shows it: Python's spelling of the non-finite ones, as the JSONL has them. */
function shown(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/**
 * The metrics with every out-of-bounds number replaced by null, and one warning naming those
 * fields and their stated values (null when all are within bounds).
 */
export function boundMetrics(metrics: Record<string, MetricValue>): { metrics: Record<string, MetricValue>; warning: string | null } {
  const bounded: Record<string, MetricValue> = {};
  const outside: string[] = [];
  for (const [key, value] of Object.entries(metrics)) {
    if (typeof value !== 'number') {
      bounded[key] = value;
      continue;
    }
    const bound = boundFor(key);
    if (bound.holds(value)) {
      bounded[key] = value;
    } else {
      bounded[key] = null;
      outside.push(`${key} ${shown(value)} (must be ${bound.rule})`);
    }
  }
  const warning = outside.length ? `values outside physical bounds stored as not measured: ${outside.join('; ')}` : null;
  return { metrics: bounded, warning };
}

/**
 * Per-request records with out-of-bounds times and lengths nulled (and such ITL entries dropped),
 * and one warning saying how many values that was and which came first (null when none).
 */
export function boundRequests(requests: readonly RequestRecord[]): { requests: RequestRecord[]; warning: string | null } {
  let count = 0;
  let first: string | null = null;
  // `where` is a function so that the location text is built only for the values that fail.
  const check = (value: number | null, bound: Bound, where: () => string): number | null => {
    if (value === null || bound.holds(value)) return value;
    count++;
    first ??= `${where()} ${shown(value)}`;
    return null;
  };
  const bounded = requests.map((r, i) => ({
    ...r,
    startTime: check(r.startTime, seconds, () => `start_times[${i}]`),
    ttft: check(r.ttft, seconds, () => `ttfts[${i}]`),
    latency: check(r.latency, seconds, () => `latencies[${i}]`),
    itl: r.itl.filter((gap, k) => check(gap, seconds, () => `itls[${i}][${k}]`) !== null),
    promptLen: check(r.promptLen, wholeCount, () => `input_lens[${i}]`),
    outputLen: check(r.outputLen, wholeCount, () => `output_lens[${i}]`),
  }));
  const warning = count ? `${count} per-request value${count === 1 ? '' : 's'} outside physical bounds stored as not measured (first: ${first})` : null;
  return { requests: bounded, warning };
}
