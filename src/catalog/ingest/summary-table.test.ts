import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMarkdownTables } from './markdown-table.js';
import { quantizationFor, readSummaryRows } from './summary-table.js';
import { parseHeading } from './heading.js';
import { labelsFromFileName } from './file-name.js';

const PAGE = `
| Model | Hardware | Cards | Deploy | Dataset | TPOT | Quantization |
|---|---|---|---|---|---|---|
| Qwen3-235B | Atlas 800I A3 | 8 cards | PD Mixed | 3.5K-1.5K | 50ms | W8A8 |
| Qwen3-235B | Atlas 800I A3 | 16 cards | PD Separation | 3.5K-1.5K | 50ms | W4A8 |
`;

test('each recipe heading gets the quantization of its summary row', () => {
  const rows = readSummaryRows(findMarkdownTables(PAGE.split('\n')), () => null);
  assert.equal(rows.length, 2);
  assert.equal(quantizationFor(parseHeading('Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms'), rows), 'W8A8');
  assert.equal(quantizationFor(parseHeading('Qwen3-235B Atlas 800I A3-16Card PD Separation 3.5K-1.5K 50ms'), rows), 'W4A8');
  assert.equal(quantizationFor(parseHeading('Qwen3-235B Atlas 800I A3 3.5K-1.5K'), rows), null, 'ambiguous');
  assert.equal(quantizationFor(parseHeading('DeepSeek-R1 B200 x8'), rows), null);
});

test('file names give hardware only when one part names it', () => {
  assert.deepEqual(labelsFromFileName('/x/deepseek-v3.2-exp-w8a8_ascend-a3_64k-3k_c32.log'), { hardware: 'ascend-a3' });
  assert.deepEqual(labelsFromFileName('qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log'), { hardware: 'ascend' });
  assert.deepEqual(labelsFromFileName('qwen2.5-0.5b_cuda-graph_64-16_r0.log'), {});
});
