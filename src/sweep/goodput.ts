/**
 * Goodput in vLLM's sense (spec §11): the rate of successful requests whose own latencies all meet
 * the SLO limits. Each target's limit applies per request whatever statistic it names, since one
 * request has one TTFT; a request's ITL is its mean gap (vLLM has no ITL goodput; this is the
 * natural per-request reading).
 */
import type { RequestOutput } from '../bench/index.js';
import { requestTpot } from './measures.js';
import type { Slo, SloMetric } from './slo.js';

/** One request's value of a metric in milliseconds; TPOT is 0 for a request of ≤ 1 token, as in vLLM. */
function requestValueMs(output: RequestOutput, metric: SloMetric): number {
  switch (metric) {
    case 'ttft':
      return output.ttft * 1000;
    case 'tpot':
      return (requestTpot(output) ?? 0) * 1000;
    case 'e2e':
      return output.latency * 1000;
    case 'itl': {
      if (output.itl.length === 0) return 0;
      let sum = 0;
      for (const gap of output.itl) sum += gap;
      return (sum / output.itl.length) * 1000;
    }
  }
}

/** True when a request succeeded and met every target's limit. */
export function isGoodRequest(output: RequestOutput, slo: Slo): boolean {
  if (!output.success) return false;
  return slo.targets.every((target) => requestValueMs(output, target.metric) <= target.limitMs);
}

export interface Goodput {
  goodRequests: number;
  /** Good requests per second of benchmark duration. */
  requestGoodput: number;
  /** Share of all requests (failed included) that were good. */
  goodFraction: number;
}

/** Counts good requests and divides by the run's duration (seconds). */
export function computeGoodput(outputs: readonly RequestOutput[], slo: Slo, durationSeconds: number): Goodput {
  let goodRequests = 0;
  for (const output of outputs) if (isGoodRequest(output, slo)) goodRequests += 1;
  return {
    goodRequests,
    requestGoodput: durationSeconds > 0 ? goodRequests / durationSeconds : 0,
    goodFraction: outputs.length > 0 ? goodRequests / outputs.length : 0,
  };
}
