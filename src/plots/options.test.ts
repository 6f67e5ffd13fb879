import assert from 'node:assert/strict';
import { test } from 'node:test';
import { throughputVsTpotOption } from './options.js';

const point = (label: string, meanTpotMs: number, throughput: number) => ({ label, group: 'g', meanTpotMs, throughput });

test('throughput vs TPOT: linear axes from zero, log axes where the runs span more than a factor of 20', () => {
  const near = throughputVsTpotOption([point('a', 10, 100), point('b', 20, 150)], 'tok/s') as { xAxis: { type: string; min?: number }; yAxis: { type: string } };
  assert.deepEqual([near.xAxis.type, near.xAxis.min, near.yAxis.type], ['value', 0, 'value']);
  const apart = throughputVsTpotOption([point('small', 3, 20_000), point('large', 90, 150)], 'tok/s') as { xAxis: { type: string }; yAxis: { type: string }; title: { subtext: string } };
  assert.deepEqual([apart.xAxis.type, apart.yAxis.type], ['log', 'log']);
  assert.match(apart.title.subtext, /log scales$/);
});
