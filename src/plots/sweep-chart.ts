/**
 * A sweep's chart as an ECharts option (pure): output throughput per card against mean TPOT
 * (left) and mean TTFT (right), one point per load, labelled with the load. Curves of several
 * sweeps (e.g. measured and predicted) share the axes so they can be compared at a glance; the
 * points no other point of their curve beats on both axes (its Pareto front) are ringed. A point
 * measured several times (`--num-runs`) carries error bars: its confidence interval on each axis.
 */
import type { EChartsOption } from 'echarts';
import { PALETTE } from './options.js';

/** One load of a sweep: its label (`16`, `2.5`) and its figures, keyed as bench_serving's JSONL. */
export interface SweepChartPoint {
  label: string;
  metrics: Readonly<Record<string, unknown>>;
  /** Half-widths of the figures' confidence intervals over repeated runs, keyed as `metrics`; absent for a point measured once. */
  intervals?: Readonly<Record<string, number | null>>;
}

export interface SweepChartSeries {
  name: string;
  /** In load order. */
  points: readonly SweepChartPoint[];
}

export interface SweepChartInput {
  title: string;
  /** What the point labels count: `concurrency` or `req/s`. */
  loadName: string;
  cards: number;
  series: readonly SweepChartSeries[];
  /** SLO limits in ms drawn as vertical lines, when given. */
  tpotLimitMs?: number;
  ttftLimitMs?: number;
}

function numeric(metrics: Readonly<Record<string, unknown>>, key: string): number | null {
  const value = metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A dashed vertical line at an SLO limit, drawn as a two-point series so no extra component is needed. */
function limitSeries(limitMs: number | undefined, panel: number, maxY: number): Record<string, unknown>[] {
  if (limitMs === undefined) return [];
  return [{
    name: 'SLO limit',
    type: 'line',
    xAxisIndex: panel,
    yAxisIndex: panel,
    symbol: 'none',
    silent: true,
    lineStyle: { type: 'dashed', color: '#6b7280' },
    data: [[limitMs, 0], [limitMs, maxY]],
  }];
}

/** A point's place on one panel and the half-widths of its intervals on each axis (0: none). */
interface Placed {
  x: number;
  y: number;
  load: string;
  halfX: number;
  halfY: number;
}

/**
 * A curve's error bars on one panel as one line series: for each point with an interval, a
 * vertical and a horizontal segment, each ended by an empty value ('-') so no segment joins the next.
 */
function errorBarSeries(name: string, placed: readonly Placed[], panel: number, color: string | undefined): Record<string, unknown>[] {
  const data: Array<[number, number] | '-'> = [];
  for (const p of placed) {
    if (p.halfY > 0) data.push([p.x, p.y - p.halfY], [p.x, p.y + p.halfY], '-');
    if (p.halfX > 0) data.push([p.x - p.halfX, p.y], [p.x + p.halfX, p.y], '-');
  }
  if (data.length === 0) return [];
  return [{
    name: `${name} interval`,
    type: 'line',
    xAxisIndex: panel,
    yAxisIndex: panel,
    symbol: 'none',
    silent: true,
    connectNulls: false,
    color,
    lineStyle: { width: 1.5, color },
    data,
  }];
}

/** Indices of the points no other point beats on both axes: lower x (latency) and higher y (throughput) are better. */
export function paretoFront(points: readonly (readonly [number, number])[]): Set<number> {
  const front = new Set<number>();
  points.forEach(([x, y], i) => {
    const beaten = points.some(([ox, oy], j) => j !== i && ox <= x && oy >= y && (ox < x || oy > y));
    if (!beaten) front.add(i);
  });
  return front;
}

/** Builds the chart option; width and height are chosen by the renderer. */
export function sweepChartOption(input: SweepChartInput): EChartsOption {
  const panels = [
    { key: 'mean_tpot_ms', axis: 'mean TPOT (ms)', limit: input.tpotLimitMs },
    { key: 'mean_ttft_ms', axis: 'mean TTFT (ms)', limit: input.ttftLimitMs },
  ];
  const perCard = (point: SweepChartPoint): number => (numeric(point.metrics, 'output_throughput') ?? 0) / input.cards;
  const halfOf = (point: SweepChartPoint, key: string): number => point.intervals?.[key] ?? 0;
  const maxY = Math.max(0, ...input.series.flatMap((curve) => curve.points.map((point) => perCard(point) + halfOf(point, 'output_throughput') / input.cards)));
  const series = panels.flatMap((panel, index) =>
    input.series.flatMap((curve, curveIndex): Record<string, unknown>[] => {
      const placed = curve.points
        .map((point) => ({ x: numeric(point.metrics, panel.key), y: perCard(point), load: point.label, halfX: halfOf(point, panel.key), halfY: halfOf(point, 'output_throughput') / input.cards }))
        .filter((entry): entry is Placed => entry.x !== null);
      const front = paretoFront(placed.map((p) => [p.x, p.y] as const));
      const color = PALETTE[curveIndex % PALETTE.length];
      const points = {
        name: curve.name,
        type: 'line',
        xAxisIndex: index,
        yAxisIndex: index,
        symbolSize: 7,
        // The same curve keeps its colour in both panels.
        color,
        data: placed.map((p, i) => ({
          value: [p.x, p.y],
          load: p.load,
          ...(front.has(i) ? { symbol: 'circle', symbolSize: 12, itemStyle: { color, borderColor: '#111827', borderWidth: 2 } } : {}),
        })),
        label: { show: true, position: 'top', fontSize: 10, formatter: (params: { data: { load: string } }) => params.data.load },
      };
      return [points, ...errorBarSeries(curve.name, placed, index, color)];
    }).concat(limitSeries(panel.limit, index, maxY)),
  );
  const hasIntervals = input.series.some((curve) => curve.points.some((point) => point.intervals !== undefined));
  return {
    animation: false,
    backgroundColor: '#ffffff',
    title: { text: input.title, subtext: `point labels: ${input.loadName} · ringed: Pareto front${hasIntervals ? ' · bars: confidence interval over repeated runs' : ''}`, left: 'center', top: 6 },
    legend: { top: 62, data: input.series.map((curve) => curve.name) },
    grid: [
      { left: 70, right: '54%', top: 100, bottom: 60 },
      { left: '54%', right: 30, top: 100, bottom: 60 },
    ],
    xAxis: panels.map((panel, index) => ({ type: 'value', gridIndex: index, name: panel.axis, nameLocation: 'middle', nameGap: 30, scale: true })),
    yAxis: panels.map((_, index) => ({ type: 'value', gridIndex: index, name: 'output tok/s per card', nameLocation: 'middle', nameGap: 50 })),
    series,
  } as EChartsOption;
}
