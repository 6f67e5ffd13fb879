import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHeading } from './heading.js';

test('Ascend best-practice heading', () => {
  assert.deepEqual(parseHeading('Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms'), {
    model: 'Qwen3-235B',
    hardware: 'Atlas 800I A3',
    cards: 8,
    deployMode: 'pd-mixed',
    datasetLabel: '3.5K-1.5K',
    targetLatencyMs: 50,
    reusesDeployment: false,
    reusesBenchmark: false,
    extraBenchArgs: [],
  });
});

test('cookbook headings', () => {
  const b200 = parseHeading('B200 x8, DeepSeek-V3.2-Exp, TP8, EAGLE/MTP, concurrency 1');
  assert.deepEqual([b200.hardware, b200.cards, b200.model, b200.concurrency, b200.datasetLabel], ['B200', 8, 'DeepSeek-V3.2-Exp', 1, undefined]);
  const h800 = parseHeading('H800 x16 (2 nodes), DeepSeek-V3.2, TP16 DP2 dp-attention + MTP, concurrency 1');
  assert.deepEqual([h800.hardware, h800.cards, h800.nodes, h800.model], ['H800', 16, 2, 'DeepSeek-V3.2']);
  const same = parseHeading('H800 x16, same deployment, concurrency 1024, 2048 prompts');
  assert.deepEqual([same.reusesDeployment, same.reusesBenchmark, same.concurrency], [true, false, 1024]);
  const plus = parseHeading('H800 x16, same deployment and benchmark plus --random-range-ratio 1');
  assert.deepEqual([plus.reusesDeployment, plus.reusesBenchmark, plus.extraBenchArgs], [true, true, ['--random-range-ratio', '1']]);
  assert.equal(parseHeading('8x B200 PD Separation 1k/1k').cards, 8);
  assert.equal(parseHeading('8x B200 PD Separation 1k/1k').deployMode, 'pd-separation');
  assert.equal(parseHeading('8x B200 PD Separation 1k/1k').datasetLabel, '1K-1K');
});
