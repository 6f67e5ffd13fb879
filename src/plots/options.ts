/**
 * Pure chart builders: data → ECharts option objects. The same options render server-side to
 * SVG/PNG (`render.ts`) and inline in the dashboard. No I/O, no ECharts runtime here.
 */
import type { EChartsOption } from 'echarts';
import { medianOfSorted, percentileOfSorted, sortAscending } from '../core/stats.js';
import type { Histogram } from './histogram.js';
import { placeLabels } from './label-placement.js';
import type { Timeline } from '../bench/index.js';

/** Series colours, readable on white and distinguishable in greyscale order. */
export const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

const TEXT = '#1f2937';
const GRID_LINE = '#e5e7eb';

/** What a chart is about (run id, model), shown before its subtitle. */
function withSubject(subject: string | undefined, subtitle: string): string {
  return subject ? `${subject} · ${subtitle}` : subtitle;
}

function base(title: string, subtitle: string): EChartsOption {
  return {
    animation: false,
    backgroundColor: '#ffffff',
    color: PALETTE,
    textStyle: { fontFamily: 'sans-serif', color: TEXT },
    title: { text: title, subtext: subtitle, left: 'center', textStyle: { fontSize: 16, color: TEXT }, subtextStyle: { color: '#6b7280' } },
    grid: { left: 80, right: 40, top: 70, bottom: 60 },
  };
}

function valueAxis(name: string, gap = 50): Record<string, unknown> {
  return {
    type: 'value',
    name,
    nameLocation: 'middle',
    nameGap: gap,
    axisLine: { show: true, lineStyle: { color: '#9ca3af' } },
    splitLine: { lineStyle: { color: GRID_LINE } },
  };
}

/** Formats a number for a subtitle: integers plainly, others with up to 2 decimals. */
export function formatFigure(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(Math.abs(value) >= 100 ? 0 : 2);
}

function timeSeriesOption(values: readonly number[], title: string, yName: string, unit: string, subject?: string): EChartsOption {
  const peak = values.reduce((a, b) => Math.max(a, b), 0);
  const subtitle = values.length
    ? `1-second buckets over ${values.length} s · peak ${formatFigure(peak)} ${unit}`
    : 'no request with a start time and latency to plot';
  return {
    ...base(title, withSubject(subject, subtitle)),
    xAxis: { ...valueAxis('Time (s)', 30), min: 0, max: Math.max(1, values.length) },
    yAxis: { ...valueAxis(yName, 55), min: 0 },
    series: [
      {
        type: 'line',
        step: 'end',
        symbol: 'none',
        lineStyle: { width: 1.5 },
        areaStyle: { opacity: 0.15 },
        // Each bucket is drawn from its start to its end second (the trailing point closes the last step).
        data: [...values.map((v, i) => [i, v]), ...(values.length ? [[values.length, values[values.length - 1]!]] : [])],
      },
    ],
  };
}

/** "Output tokens per second" over the run (bench_serving's `--plot-throughput` first plot). */
export function outputThroughputOption(timeline: Timeline, subject?: string): EChartsOption {
  return timeSeriesOption(timeline.outputTokens, 'Output tokens per second', 'Output tokens / s', 'tok/s', subject);
}

/** "Concurrent requests per second" over the run (bench_serving's second plot). */
export function concurrencyOption(timeline: Timeline, subject?: string): EChartsOption {
  return timeSeriesOption(timeline.inFlight, 'Concurrent requests per second', 'Requests active in the second', 'requests', subject);
}

/** A latency histogram; `samples` are the binned values, used for the subtitle's median and p99. */
export function latencyHistogramOption(
  title: string,
  axisName: string,
  hist: Histogram,
  samples: readonly number[],
  subject?: string,
): EChartsOption {
  const edges = hist.counts.map((_, i) => Number((hist.start + i * hist.binWidth).toPrecision(10)));
  const end = Number((hist.start + hist.counts.length * hist.binWidth).toPrecision(10));
  const tail = hist.overflow ? ` · last bar: ≥ ${formatFigure(end)} ms` : '';
  const sorted = sortAscending(samples);
  const subtitle = samples.length
    ? `n = ${samples.length} · median ${formatFigure(medianOfSorted(sorted))} ms · p99 ${formatFigure(percentileOfSorted(sorted, 99))} ms · bin ${formatFigure(hist.binWidth)} ms${tail}`
    : 'no samples: the run has no per-request records with these timings';
  const bars: (number | { value: number; itemStyle: { color: string } })[] = [...hist.counts];
  if (hist.overflow) bars.push({ value: hist.overflow, itemStyle: { color: '#9ca3af' } });
  return {
    ...base(title, withSubject(subject, subtitle)),
    xAxis: {
      type: 'category',
      name: axisName,
      nameLocation: 'middle',
      nameGap: 35,
      data: [...edges.map(formatFigure), ...(hist.overflow ? [`≥${formatFigure(end)}`] : [])],
      axisTick: { alignWithLabel: false },
      axisLine: { lineStyle: { color: '#9ca3af' } },
    },
    yAxis: { ...valueAxis('Count', 55), minInterval: 1 },
    series: [{ type: 'bar', barCategoryGap: '8%', data: bars }],
  };
}

/** Values that span more than a factor of LOG_SPREAD (all positive) read better on a log axis. */
const LOG_SPREAD = 20;

function spansDecades(values: readonly number[]): boolean {
  if (values.length < 2 || values.some((v) => !(v > 0))) return false;
  return Math.max(...values) / Math.min(...values) > LOG_SPREAD;
}

/** One run on the throughput-vs-TPOT chart. */
export interface ThroughputPoint {
  /** Short label drawn next to the point (run id or recipe). */
  label: string;
  /** Legend group (usually the model). */
  group: string;
  meanTpotMs: number;
  throughput: number;
}

/**
 * Throughput against mean TPOT for several runs, one series per group. Points up and to the left
 * are better; the trade-off frontier of a deployment shows as a curve.
 */
export function throughputVsTpotOption(points: readonly ThroughputPoint[], yName: string): EChartsOption {
  const groups = [...new Set(points.map((p) => p.group))];
  // Runs of very different scale (a fast small model beside slow large ones) bunch at one corner of a linear axis.
  const logX = spansDecades(points.map((p) => p.meanTpotMs));
  const logY = spansDecades(points.map((p) => p.throughput));
  const scales = logX && logY ? ' · log scales' : logX ? ' · log TPOT scale' : logY ? ' · log throughput scale' : '';
  const subtitle = `${points.length} run${points.length === 1 ? '' : 's'} · up and to the left is better${scales}`;
  const sides = placeLabels(
    points.map((p) => ({ x: p.meanTpotMs, y: p.throughput, label: p.label })),
    { width: 620, height: groups.length > 1 ? 220 : 250 },
  );
  return {
    ...base('Output throughput vs. mean TPOT', subtitle),
    grid: { left: 80, right: 70, top: 70, bottom: groups.length > 1 ? 90 : 60 },
    legend: groups.length > 1 ? { bottom: 5, type: 'plain', textStyle: { color: TEXT } } : { show: false },
    // Linear axes start at zero: a zoomed axis would make a 0.1% difference look like a trade-off curve.
    xAxis: logX ? { ...valueAxis('Mean TPOT (ms, log)', 30), type: 'log' } : { ...valueAxis('Mean TPOT (ms)', 30), min: 0 },
    yAxis: logY ? { ...valueAxis(`${yName} (log)`, 60), type: 'log' } : { ...valueAxis(yName, 60), min: 0 },
    series: groups.map((group) => ({
      type: 'scatter',
      name: group,
      symbolSize: 11,
      label: { show: true, fontSize: 11, color: '#374151', formatter: '{b}' },
      data: points.flatMap((p, i) =>
        p.group === group ? [{ name: p.label, value: [p.meanTpotMs, p.throughput], label: { position: sides[i]! } }] : [],
      ),
    })),
  };
}
