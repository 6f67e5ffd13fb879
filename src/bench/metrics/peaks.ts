/**
 * Peak output token throughput and peak concurrent requests: the maxima of the run's 1-second
 * buckets of token events and in-flight requests (spec §5).
 */
import { max, orZero } from '../../core/stats.js';
import type { RequestOutput } from '../types.js';
import { perSecondTimeline } from './per-second.js';

export interface PeakMetrics {
  maxOutputTokensPerS: number;
  maxConcurrentRequests: number;
}

/** The busiest buckets of the successful outputs, counted as bench_serving counts them; zero for no outputs. */
export function calculatePeaks(successes: readonly RequestOutput[]): PeakMetrics {
  const { outputTokens, inFlight } = perSecondTimeline(successes);
  return { maxOutputTokensPerS: max(orZero(outputTokens)), maxConcurrentRequests: max(orZero(inFlight)) };
}
