/**
 * Which chart a plot kind is, built from catalog data: the per-run kinds from a run's per-request
 * records, `tput-vs-tpot` from several runs' metrics. Pure.
 */
import type { EChartsOption } from 'echarts';
import { UserError } from '../core/errors.js';
import { deriveCards, requestTtftsMs, shortModelName, type RequestRecord, type RunRecord } from '../catalog/index.js';
import { histogram, itlSamplesMs } from './histogram.js';
import { concurrencyOption, latencyHistogramOption, outputThroughputOption, throughputVsTpotOption, type ThroughputPoint } from './options.js';
import { perSecondTimeline } from '../bench/index.js';
import { requestTimelineOption } from './request-timeline.js';
import { serverMetricsOption, serverSeriesOf } from './server-metrics-chart.js';

export const RUN_PLOT_KINDS = ['throughput', 'concurrency', 'ttft', 'itl', 'timeline', 'server'] as const;
export type RunPlotKind = (typeof RUN_PLOT_KINDS)[number];
export const PLOT_KINDS = [...RUN_PLOT_KINDS, 'tput-vs-tpot'] as const;
export type PlotKind = (typeof PLOT_KINDS)[number];

/** `run 1a2b3c4d5e6f · Qwen3-8B`: the subject line of a run's charts. */
export function runSubject(run: RunRecord): string {
  const model = shortModelName(run);
  return model ? `run ${run.id} · ${model}` : `run ${run.id}`;
}

/** Whether a per-run chart can be drawn from these records (and, for `server`, the run's stored /metrics readings), and why not when it cannot. */
export function runChartAvailability(kind: RunPlotKind, requests: readonly RequestRecord[], run: Pick<RunRecord, 'serverMetrics'> = {}): string | null {
  if (kind === 'server' && serverSeriesOf(run.serverMetrics) !== null) return null;
  if (requests.length === 0) return 'the run has no per-request records (ingested from a console log)';
  if (kind === 'throughput' || kind === 'concurrency' || kind === 'timeline') {
    if (perSecondTimeline(requests).requestsUsed === 0) return 'no successful request has a start time and latency (JSONL details do not record them)';
  } else if (kind === 'server') {
    return 'no /metrics readings were kept with the run (the server exposed none, or it was run with --no-server-metrics)';
  } else if (kind === 'ttft') {
    if (requestTtftsMs(requests).length === 0) return 'no successful request has a TTFT';
  } else if (itlSamplesMs(requests).length === 0) {
    return 'no successful request has inter-token latencies';
  }
  return null;
}

/** The chart of one run; throws `UserError` when its records cannot give this kind. */
export function runChartOption(kind: RunPlotKind, run: RunRecord, requests: readonly RequestRecord[]): EChartsOption {
  const missing = runChartAvailability(kind, requests, run);
  if (missing) throw new UserError(`cannot plot ${kind} for run ${run.id}: ${missing}; choose a run recorded by 'servebench bench'`);
  const subject = runSubject(run);
  switch (kind) {
    case 'throughput':
      return outputThroughputOption(perSecondTimeline(requests), subject);
    case 'concurrency':
      return concurrencyOption(perSecondTimeline(requests), subject);
    case 'ttft': {
      const samples = requestTtftsMs(requests);
      return latencyHistogramOption('Time to first token', 'TTFT (ms)', histogram(samples), samples, subject);
    }
    case 'itl': {
      const samples = itlSamplesMs(requests);
      return latencyHistogramOption('Inter-token latency', 'ITL (ms)', histogram(samples), samples, subject);
    }
    case 'timeline':
      return requestTimelineOption(requests, subject);
    case 'server':
      return serverMetricsOption(serverSeriesOf(run.serverMetrics)!, String(run.serverMetrics?.dialect ?? ''), subject);
  }
}

function finiteMetric(run: RunRecord, key: string): number | null {
  const value = run.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The points of a throughput-vs-TPOT chart, and one line per run that could not be placed. */
export function throughputPoints(runs: readonly RunRecord[], perCard: boolean): { points: ThroughputPoint[]; skipped: string[] } {
  const points: ThroughputPoint[] = [];
  const skipped: string[] = [];
  for (const run of runs) {
    const tpot = finiteMetric(run, 'mean_tpot_ms');
    let throughput = finiteMetric(run, 'output_throughput');
    if (tpot === null || throughput === null) {
      skipped.push(`run ${run.id} has no mean TPOT or output throughput`);
      continue;
    }
    if (perCard) {
      const cards = deriveCards(run);
      if (!cards) {
        skipped.push(`run ${run.id} has no card count (neither a cards label nor a launch command)`);
        continue;
      }
      throughput /= cards.value;
    }
    points.push({ label: run.id.slice(0, 6), group: shortModelName(run) ?? 'unknown model', meanTpotMs: tpot, throughput });
  }
  return { points, skipped };
}

/** The throughput-vs-TPOT chart of several runs; throws `UserError` when none can be placed. */
export function comparisonChartOption(runs: readonly RunRecord[], perCard = false): { option: EChartsOption; skipped: string[] } {
  const { points, skipped } = throughputPoints(runs, perCard);
  if (points.length === 0) throw new UserError(`none of the runs can be placed: ${skipped.join('; ')}`);
  const yName = perCard ? 'Output tok/s per card' : 'Output tok/s';
  return { option: throughputVsTpotOption(points, yName), skipped };
}
