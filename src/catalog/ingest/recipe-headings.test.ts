import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fencedLines, findHeadings } from './recipe-headings.js';

test('a heading takes the fact lines under it; its {#id} is its anchor', () => {
  const lines = ['### DeepSeek R1 High Performance 50ms 1 {#r1-50ms}', '', 'Model: Deepseek R1', '', 'Hardware: Atlas 800I A3 32Card', 'DataSets: 3.5K1.5K', 'TPOT: 50ms', '', '#### Model Deployment'];
  const [heading, sub] = findHeadings(lines, Infinity, new Set());
  assert.deepEqual([heading!.text, heading!.anchor, heading!.level], ['DeepSeek R1 High Performance 50ms 1', 'r1-50ms', 3]);
  assert.deepEqual([heading!.facts.model, heading!.facts.hardware, heading!.facts.cards, heading!.facts.datasetLabel, heading!.facts.targetLatencyMs], ['Deepseek R1', 'Atlas 800I A3', 32, '3.5K-1.5K', 50]);
  assert.deepEqual([sub!.text, sub!.level, sub!.facts.model], ['Model Deployment', 4, undefined]);
});

test('a page saved as text: the fact line naming the model opens the recipe, the short line above titles it', () => {
  const lines = ['Qwen3-32B Low Latency 18ms', 'Model: Qwen3-32B', 'Hardware: Atlas 800I A3 4Card', 'Model Deployment'];
  const [heading] = findHeadings(lines, Infinity, new Set());
  assert.deepEqual([heading!.line, heading!.text, heading!.level, heading!.facts.cards, heading!.facts.targetLatencyMs], [1, 'Qwen3-32B Low Latency 18ms', 0, 4, 18]);
});

test('a # line is a title only at the top: later, and inside a fence, it is a shell comment', () => {
  const lines = ['## H100 x8, Qwen3-8B, TP8', '# prefill node', '```', '## not a heading', '```'];
  assert.deepEqual([...fencedLines(lines)], [2, 3, 4]);
  assert.deepEqual(findHeadings(lines, Infinity, fencedLines(lines)).map((h) => h.text), ['H100 x8, Qwen3-8B, TP8']);
});
