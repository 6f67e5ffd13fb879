/**
 * Peak output token throughput and peak concurrent requests: token events and in-flight
 * requests counted in 1-second buckets from the first request's start (spec §5).
 */
import type { RequestOutput } from '../types.js';

export interface PeakMetrics {
  maxOutputTokensPerS: number;
  maxConcurrentRequests: number;
}

/**
 * Buckets the successful outputs' token events (`start + ttft`, then `+ itl[i]` cumulatively,
 * raw ITL) and in-flight spans (`int(start − t0)` through `int(end − t0)`), as bench_serving does,
 * with Python `int()` truncation. Zero for no outputs.
 */
export function calculatePeaks(successes: readonly RequestOutput[]): PeakMetrics {
  if (successes.length === 0) return { maxOutputTokensPerS: 0, maxConcurrentRequests: 0 };
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const output of successes) {
    t0 = Math.min(t0, output.startTime);
    t1 = Math.max(t1, output.startTime + output.latency);
  }
  const bucketCount = Math.ceil(t1 - t0) + 1;
  const tokens = new Float64Array(bucketCount);
  const inFlight = new Float64Array(bucketCount);
  const count = (buckets: Float64Array, time: number): void => {
    const bucket = Math.trunc(time - t0);
    if (bucket >= 0 && bucket < bucketCount) buckets[bucket] += 1;
  };
  for (const output of successes) {
    let tokenTime = output.startTime + output.ttft;
    count(tokens, tokenTime);
    for (const gap of output.itl) {
      tokenTime += gap;
      count(tokens, tokenTime);
    }
    const first = Math.trunc(output.startTime - t0);
    const last = Math.min(Math.trunc(output.startTime + output.latency - t0), bucketCount - 1);
    for (let bucket = first; bucket <= last; bucket += 1) inFlight[bucket] += 1;
  }
  let maxTokens = 0;
  let maxInFlight = 0;
  for (let bucket = 0; bucket < bucketCount; bucket += 1) {
    maxTokens = Math.max(maxTokens, tokens[bucket] as number);
    maxInFlight = Math.max(maxInFlight, inFlight[bucket] as number);
  }
  return { maxOutputTokensPerS: maxTokens, maxConcurrentRequests: maxInFlight };
}
