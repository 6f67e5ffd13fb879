import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMarkdownTables } from './markdown-table.js';
import { quantizationFor, readSummaryRows, sectionFor } from './summary-table.js';
import { headingSlug } from './recipe-headings.js';
import { parseHeading } from './heading.js';
import { labelsFromFileName } from './file-name.js';

const PAGE = `
| Model | Hardware | Cards | Deploy | Dataset | TPOT | Quantization |
|---|---|---|---|---|---|---|
| Qwen3-235B | Atlas 800I A3 | 8 cards | PD Mixed | 3.5K-1.5K | 50ms | W8A8 |
| Qwen3-235B | Atlas 800I A3 | 16 cards | PD Separation | 3.5K-1.5K | 50ms | W4A8 |
`;

const rowsOf = (page: string) => readSummaryRows(findMarkdownTables(page.split('\n')), () => 'Low Latency');

test('each recipe heading gets the quantization of its summary row', () => {
  const rows = rowsOf(PAGE);
  assert.equal(rows.length, 2);
  assert.equal(quantizationFor(parseHeading('Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms'), rows), 'W8A8');
  assert.equal(quantizationFor(parseHeading('Qwen3-235B Atlas 800I A3-16Card PD Separation 3.5K-1.5K 50ms'), rows), 'W4A8');
  assert.equal(quantizationFor(parseHeading('Qwen3-235B Atlas 800I A3 3.5K-1.5K'), rows), null, 'ambiguous');
  assert.equal(quantizationFor(parseHeading('DeepSeek-R1 B200 x8'), rows), null);
});

test('rows are read by their header in any column order; a cell that does not fit is left out with a warning', () => {
  const [row] = rowsOf('| TPOT(ms) | Cards | Model | Output TPS(per card) |\n|---|---|---|---|\n| 19.81 | many | Deepseek-R1 | 36.906 |');
  assert.deepEqual(row!.facts, { meanTpotMs: 19.81, model: 'Deepseek-R1', outputPerCard: 36.906 });
  assert.deepEqual(row!.warnings, ["summary table 1 row 1: Cards 'many' is not a Cards value; left out"]);
  assert.equal(row!.caption, 'Low Latency');
  assert.equal(row!.text, 'summary table 1 row 1\nTPOT(ms): 19.81\nCards: many\nModel: Deepseek-R1\nOutput TPS(per card): 36.906');
});

test('a row links to the section its anchor names, else to the one section stating the same facts', () => {
  const section = (title: string, anchor: string | null = null) => ({ title, anchor, facts: parseHeading(title) });
  const sections = [
    section('Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms'),
    section('Qwen3-235B Atlas 800I A3-16Card PD Separation 3.5K-1.5K 50ms', 'sep-50'),
    section('Qwen3-235B Atlas 800I A3-16Card PD Separation 3.5K-1.5K 50ms MTP'),
  ];
  const [mixed, separated] = rowsOf(PAGE);
  assert.deepEqual(sectionFor(mixed!, sections), { index: 0, warning: null });
  assert.deepEqual(sectionFor(separated!, sections), {
    index: null,
    warning: 'summary table 1 row 2 matches 2 recipes alike ("Qwen3-235B Atlas 800I A3-16Card PD Separation 3.5K-1.5K 50ms", "Qwen3-235B Atlas 800I A3-16Card PD Separation 3.5K-1.5K 50ms MTP"); not linked to one',
  });
  assert.deepEqual(sectionFor({ ...separated!, anchor: 'sep-50' }, sections), { index: 1, warning: null });
  assert.deepEqual(sectionFor({ ...separated!, anchor: headingSlug(sections[2]!.title) }, sections), { index: 2, warning: null });
  assert.equal(headingSlug('DeepSeek R1 Low Latency 20ms 1'), 'deepseek-r1-low-latency-20ms-1');
});

test('file names give hardware only when one part names it', () => {
  assert.deepEqual(labelsFromFileName('/x/deepseek-v3.2-exp-w8a8_ascend-a3_64k-3k_c32.log'), { hardware: 'ascend-a3' });
  assert.deepEqual(labelsFromFileName('qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log'), { hardware: 'ascend' });
  assert.deepEqual(labelsFromFileName('qwen2.5-0.5b_cuda-graph_64-16_r0.log'), {});
});
