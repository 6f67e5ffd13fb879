/**
 * The per-request timeline of a run: one bar per request, by start, split into its wait for a
 * concurrency slot, its time to first token and its decode. Pure: records in, an ECharts option out.
 */
import type { EChartsOption } from 'echarts';
import type { RequestRecord } from '../catalog/index.js';
import { PALETTE } from './options.js';

/** Bars drawn at most: beyond it every k-th request (by start) is shown, and the subtitle says so. */
export const MAX_TIMELINE_BARS = 400;

/** One request's phases, seconds from the run's first send. */
export interface RequestPhases {
  index: number;
  queuedAt: number;
  queue: number;
  ttft: number;
  decode: number;
}

/** The phases of every successful request with a start time and latency, by start (queue 0 when not recorded). */
export function requestPhases(requests: readonly RequestRecord[]): RequestPhases[] {
  const phases: RequestPhases[] = [];
  requests.forEach((r, index) => {
    if (!r.success || r.startTime === null || r.latency === null || r.ttft === null) return;
    const queue = Math.max(0, r.queueTime ?? 0);
    phases.push({ index, queuedAt: r.startTime - queue, queue, ttft: r.ttft, decode: Math.max(0, r.latency - r.ttft) });
  });
  return phases.sort((a, b) => a.queuedAt + a.queue - (b.queuedAt + b.queue) || a.index - b.index);
}

/** Every k-th of `phases`, k the least that keeps the bars within MAX_TIMELINE_BARS. */
function sampled(phases: readonly RequestPhases[]): { shown: RequestPhases[]; every: number } {
  const every = Math.max(1, Math.ceil(phases.length / MAX_TIMELINE_BARS));
  return { shown: phases.filter((_, i) => i % every === 0), every };
}

const round = (seconds: number): number => Number(seconds.toFixed(6));

/** The timeline chart of `requests` (`subject`: which run). */
export function requestTimelineOption(requests: readonly RequestRecord[], subject?: string): EChartsOption {
  const phases = requestPhases(requests);
  const { shown, every } = sampled(phases);
  const queued = phases.some((p) => p.queue > 0);
  const subtitle =
    `${phases.length} request${phases.length === 1 ? '' : 's'}` +
    (every > 1 ? ` · 1 in ${every} shown` : '') +
    (queued ? '' : ' · no queue times recorded');
  const series = (name: string, color: string, values: readonly number[]) => ({ type: 'bar' as const, name, stack: 'request', itemStyle: { color }, data: values.map(round), barCategoryGap: '15%' });
  return {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'sans-serif', color: '#1f2937' },
    title: { text: 'Requests over the run', subtext: subject ? `${subject} · ${subtitle}` : subtitle, left: 'center', textStyle: { fontSize: 16 }, subtextStyle: { color: '#6b7280' } },
    legend: { bottom: 5, data: ['queue', 'time to first token', 'decode'] },
    grid: { left: 70, right: 30, top: 70, bottom: 70 },
    xAxis: { type: 'value', name: 'Time since the first send (s)', nameLocation: 'middle', nameGap: 28, min: 0, splitLine: { lineStyle: { color: '#e5e7eb' } } },
    yAxis: {
      type: 'category',
      name: 'Request (by start)',
      nameLocation: 'middle',
      nameGap: 50,
      inverse: true,
      data: shown.map((p) => String(p.index)),
      axisLabel: { interval: Math.max(0, Math.ceil(shown.length / 20) - 1) },
    },
    series: [
      // The bar starts where the request began to wait: an invisible first segment offsets it.
      { type: 'bar', name: 'offset', stack: 'request', itemStyle: { color: 'transparent' }, silent: true, data: shown.map((p) => round(p.queuedAt)) },
      series('queue', '#9ca3af', shown.map((p) => p.queue)),
      series('time to first token', PALETTE[3]!, shown.map((p) => p.ttft)),
      series('decode', PALETTE[0]!, shown.map((p) => p.decode)),
    ],
  };
}
