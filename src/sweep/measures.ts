/**
 * Where an SLO target's observed value comes from: the per-request records of a run, so any
 * statistic can be judged (the printed block has only a few), computed as numpy does.
 */
import type { RequestOutput } from '../bench/index.js';
import { mean, median, percentile } from '../core/stats.js';
import type { SloMeasure, SloStatistic } from './slo.js';

/** Per-request latencies in milliseconds, by metric, following bench_serving's list definitions (spec §5). */
export interface LatencySamples {
  ttft: number[];
  tpot: number[];
  itl: number[];
  e2e: number[];
}

/** TPOT of one request in seconds; requests with at most one output token have none. */
export function requestTpot(output: RequestOutput): number | undefined {
  if (output.outputLen <= 1) return undefined;
  return (output.latency - output.ttft) / (output.outputLen - 1);
}

/** Collects the latency lists of the successful requests, in milliseconds. */
export function latencySamples(outputs: readonly RequestOutput[]): LatencySamples {
  const samples: LatencySamples = { ttft: [], tpot: [], itl: [], e2e: [] };
  for (const output of outputs) {
    if (!output.success) continue;
    samples.ttft.push(output.ttft * 1000);
    samples.e2e.push(output.latency * 1000);
    const tpot = requestTpot(output);
    if (tpot !== undefined) samples.tpot.push(tpot * 1000);
    for (const gap of output.itl) samples.itl.push(gap * 1000);
  }
  return samples;
}

/** Mean, median or percentile of a non-empty sample, numpy-equal like the printed block. */
function sampleStatistic(values: readonly number[], statistic: SloStatistic): number {
  if (statistic.kind === 'mean') return mean(values);
  if (statistic.kind === 'median') return median(values);
  return percentile(values, statistic.p);
}

/** Measures any statistic from per-request records; an empty list reads 0 as in bench_serving, except E2E. */
export function measureFromOutputs(outputs: readonly RequestOutput[]): SloMeasure {
  const samples = latencySamples(outputs);
  return (target) => {
    const values = samples[target.metric];
    if (values.length === 0) return target.metric === 'e2e' ? undefined : 0;
    return sampleStatistic(values, target.statistic);
  };
}
