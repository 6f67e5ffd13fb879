/**
 * The run clock: seconds from `performance.now()`, monotonic and cheap (no BigInt). Every request
 * time of one run comes from this clock in this process, so differences are meaningful.
 */
import { performance } from 'node:perf_hooks';

/** Current run-clock time in seconds. */
export function nowSeconds(): number {
  return performance.now() / 1000;
}
