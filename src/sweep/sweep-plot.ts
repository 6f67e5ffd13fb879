/**
 * The sweep's chart as an ECharts option (pure): output throughput per card against mean TPOT
 * (left) and mean TTFT (right), one point per load, labelled with the load. Curves of several
 * sweeps (e.g. real time and prediction) share the axes so they can be compared at a glance.
 */
import type { EChartsOption } from 'echarts';
import { PALETTE } from '../plots/index.js';
import { formatLoad, type LoadKind } from './load-series.js';
import { outputThroughput, type SweepPoint } from './sweep.js';

export interface PlotSeries {
  name: string;
  points: readonly SweepPoint[];
}

export interface SweepPlotInput {
  title: string;
  kind: LoadKind;
  cards: number;
  series: readonly PlotSeries[];
  /** SLO limits in ms drawn as vertical lines, when given. */
  tpotLimitMs?: number;
  ttftLimitMs?: number;
}

function numeric(point: SweepPoint, key: string): number | null {
  const value = point.metrics[key];
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

/** Builds the chart option; width and height are chosen by the renderer. */
export function sweepChartOption(input: SweepPlotInput): EChartsOption {
  const panels = [
    { key: 'mean_tpot_ms', axis: 'mean TPOT (ms)', limit: input.tpotLimitMs },
    { key: 'mean_ttft_ms', axis: 'mean TTFT (ms)', limit: input.ttftLimitMs },
  ];
  const loadName = input.kind === 'concurrency' ? 'concurrency' : 'req/s';
  const maxY = Math.max(0, ...input.series.flatMap((curve) => curve.points.map((point) => outputThroughput(point) / input.cards)));
  const series = panels.flatMap((panel, index) =>
    input.series.map((curve, curveIndex): Record<string, unknown> => {
      const data = [...curve.points]
        .sort((a, b) => a.load - b.load)
        .map((point) => ({ value: [numeric(point, panel.key), outputThroughput(point) / input.cards], load: formatLoad(point.load) }))
        .filter((entry) => entry.value[0] !== null);
      return {
        name: curve.name,
        type: 'line',
        xAxisIndex: index,
        yAxisIndex: index,
        symbolSize: 7,
        // The same curve keeps its colour in both panels.
        color: PALETTE[curveIndex % PALETTE.length],
        data,
        label: { show: true, position: 'top', fontSize: 10, formatter: (params: { data: { load: string } }) => params.data.load },
      };
    }).concat(limitSeries(panel.limit, index, maxY)),
  );
  return {
    animation: false,
    backgroundColor: '#ffffff',
    title: { text: input.title, subtext: `point labels: ${loadName}`, left: 'center', top: 6 },
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
