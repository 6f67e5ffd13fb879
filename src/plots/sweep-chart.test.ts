import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { paretoFront, sweepChartOption } from './sweep-chart.js';

const point = (label: string, throughput: number, tpot: number, ttft: number) => ({ label, metrics: { output_throughput: throughput, mean_tpot_ms: tpot, mean_ttft_ms: ttft } });

describe('sweepChartOption', () => {
  test('two panels (TPOT, TTFT) per curve, per-card throughput, SLO limits as dashed lines', () => {
    const option = sweepChartOption({
      title: 't', loadName: 'concurrency', cards: 2, tpotLimitMs: 10,
      series: [{ name: 'sim', points: [point('1', 100, 5, 100), point('2', 200, 8, 120)] }, { name: 'predict', points: [point('1', 110, 5, 90)] }],
    });
    const series = option.series as Array<{ name: string; xAxisIndex: number; data: Array<{ value: number[]; load: string } | number[]> }>;
    assert.deepEqual(series.map((s) => [s.name, s.xAxisIndex]), [['sim', 0], ['predict', 0], ['SLO limit', 0], ['sim', 1], ['predict', 1]]);
    assert.deepEqual((series[0]?.data as Array<{ value: number[]; load: string }>).map((d) => [d.value, d.load]), [[[5, 50], '1'], [[8, 100], '2']]);
    assert.deepEqual((series[3]?.data[0] as { value: number[] }).value, [100, 50]);
    assert.deepEqual(series[2]?.data, [[10, 0], [10, 100]]);
  });

  test('the Pareto front: points no other beats on both latency and throughput are ringed', () => {
    assert.deepEqual([...paretoFront([[5, 50], [8, 100], [9, 90], [5, 40]])].sort(), [0, 1]);
    const option = sweepChartOption({ title: 't', loadName: 'concurrency', cards: 1, series: [{ name: 'm', points: [point('1', 50, 5, 10), point('2', 100, 8, 20), point('4', 90, 9, 30)] }] });
    const data = (option.series as Array<{ data: Array<{ itemStyle?: unknown }> }>)[0]!.data;
    assert.deepEqual(data.map((d) => d.itemStyle !== undefined), [true, true, false]);
  });

  test('a point measured several times gets error bars: its interval on both axes, one series per curve and panel', () => {
    const repeated = { ...point('4', 200, 8, 120), intervals: { output_throughput: 20, mean_tpot_ms: 0.5, mean_ttft_ms: null } };
    const option = sweepChartOption({ title: 't', loadName: 'concurrency', cards: 2, series: [{ name: 'sim', points: [point('1', 100, 5, 100), repeated] }] });
    const series = option.series as Array<{ name: string; xAxisIndex: number; data: unknown[] }>;
    assert.deepEqual(series.map((s) => [s.name, s.xAxisIndex]), [['sim', 0], ['sim interval', 0], ['sim', 1], ['sim interval', 1]]);
    // ±20 tok/s over 2 cards is ±10 per card; ±0.5 ms of TPOT across.
    assert.deepEqual(series[1]!.data, [[8, 90], [8, 110], '-', [7.5, 100], [8.5, 100], '-']);
    assert.deepEqual(series[3]!.data, [[120, 90], [120, 110], '-'], 'no TTFT interval: the vertical bar only');
    assert.match(String((option.title as { subtext: string }).subtext), /bars: confidence interval over repeated runs/);
  });
});
