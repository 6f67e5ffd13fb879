/**
 * `plot --kind server`: the server's own gauges over a bench run, as its `/metrics` readings gave
 * them (running and queued requests, KV-cache usage, generation throughput between readings),
 * from the series the catalog keeps with the run. Pure.
 */
import type { EChartsOption } from 'echarts';
import type { ServerMetricsSeries } from '../bench/index.js';
import type { ServerMetricsRecord } from '../catalog/index.js';
import { PALETTE } from './options.js';

/** The readings' series as bench summarized them (null where a reading had none). */
type ServerSeries = ServerMetricsSeries;

function numbers(value: unknown, length: number): Array<number | null> | null {
  if (!Array.isArray(value) || value.length !== length) return null;
  return value.map((v) => (typeof v === 'number' && Number.isFinite(v) ? v : null));
}

/** The series of a run's stored server metrics, or null when it has none (or they do not read). */
export function serverSeriesOf(metrics: ServerMetricsRecord | null | undefined): ServerSeries | null {
  const series = metrics?.series as Record<string, unknown> | undefined;
  const t = series?.t;
  if (!Array.isArray(t) || t.length < 2 || !t.every((v) => typeof v === 'number')) return null;
  const n = t.length;
  const running = numbers(series!.running_requests, n);
  const queued = numbers(series!.queued_requests, n);
  const kvUsage = numbers(series!.kv_cache_usage, n);
  const generationThroughput = numbers(series!.generation_throughput, n);
  if (running === null || queued === null || kvUsage === null || generationThroughput === null) return null;
  return { t: t as number[], running, queued, kvUsage, generationThroughput };
}

const line = (name: string, t: readonly number[], values: ReadonlyArray<number | null>, yAxisIndex: number, color: string) => ({
  name,
  type: 'line' as const,
  yAxisIndex,
  symbol: 'circle',
  symbolSize: 4,
  connectNulls: false,
  lineStyle: { width: 1.5, color },
  itemStyle: { color },
  data: t.map((x, i) => [x, values[i] ?? null]),
});

/** The chart: requests and KV usage (%) on the left axis, the server's generation throughput on the right. */
export function serverMetricsOption(series: ServerSeries, dialect: string, subject?: string): EChartsOption {
  const subtitle = `${dialect} /metrics, ${series.t.length} readings over ${series.t.at(-1)!.toFixed(2)} s (server time)`;
  const axis = (name: string, position: 'left' | 'right') => ({
    type: 'value' as const,
    name,
    position,
    nameLocation: 'middle' as const,
    nameGap: 50,
    min: 0,
    axisLine: { show: true, lineStyle: { color: '#9ca3af' } },
    splitLine: { show: position === 'left', lineStyle: { color: '#e5e7eb' } },
  });
  return {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'sans-serif', color: '#1f2937' },
    title: { text: "The server's side", subtext: subject ? `${subject} · ${subtitle}` : subtitle, left: 'center', textStyle: { fontSize: 16 } },
    legend: { bottom: 0 },
    grid: { left: 80, right: 80, top: 70, bottom: 70 },
    xAxis: { type: 'value', name: 'Time (s)', nameLocation: 'middle', nameGap: 30, min: 0, axisLine: { show: true, lineStyle: { color: '#9ca3af' } } },
    yAxis: [axis('Requests · KV cache usage (%)', 'left'), axis('Generation tok/s', 'right')],
    series: [
      line('running requests', series.t, series.running, 0, PALETTE[0]!),
      line('queued requests', series.t, series.queued, 0, PALETTE[1]!),
      line('KV cache usage (%)', series.t, series.kvUsage.map((v) => (v === null ? null : v * 100)), 0, PALETTE[2]!),
      line('generation tok/s', series.t, series.generationThroughput, 1, PALETTE[3]!),
    ],
  };
}
