import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runIdFor } from '../store/catalog.js';
import { readDocumentRuns } from './document-runs.js';

const BLOCK = ['============ Serving Benchmark Result ============', 'Mean TPOT (ms):  48.5', 'Output token throughput (tok/s): 6000', '='.repeat(50)].join('\n');

const PAGE = [
  'Low Latency',
  '| Model | Hardware | Cards | Deploy Mode | Dataset | TPOT | Quantization |',
  '|---|---|---|---|---|---|---|',
  '| Qwen3-235B | Atlas 800I A3 | 8 | PD Mixed | 3.5K-1.5K | 50ms | W8A8 |',
  '| Qwen3-32B | Atlas 800I A3 | 4 | PD Mixed | 6K-1.5K | 16.87 | W8A8 |',
  '',
  '### Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms',
  'python -m sglang.launch_server --model-path /m/Qwen3-235B --tp 16',
  'python -m sglang.bench_serving --num-prompts 400 --max-concurrency 64',
  BLOCK,
].join('\n');

test('summary rows are runs of their own, stating only what the row states, linked to the recipe they summarise', () => {
  const [recipe, linked, alone] = readDocumentRuns(PAGE, 'page.md');
  assert.deepEqual([recipe!.labels!.quantization, recipe!.metrics.mean_tpot_ms], ['W8A8', 48.5]);
  assert.deepEqual(linked!.labels, {
    hardware: 'Atlas 800I A3', cards: '8', deploy: 'pd-mixed', 'target-latency-ms': '50', dataset: '3.5K-1.5K', quantization: 'W8A8',
    source: 'summary-table', 'recipe-run': runIdFor(recipe!.source.contentHash),
  });
  assert.deepEqual(linked!.metrics, {}, 'a latency target is not a measured TPOT');
  assert.deepEqual([linked!.recipe!.instances[0]!.config.tpSize, linked!.args], [16, { num_prompts: 400, max_concurrency: 64 }]);
  assert.equal(linked!.source.title, 'Low Latency, row 1 → Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms');
  assert.deepEqual([alone!.model, alone!.metrics, alone!.recipe, alone!.args, alone!.labels!['recipe-run']], ['Qwen3-32B', { mean_tpot_ms: 16.87 }, null, null, undefined]);
  assert.equal(alone!.source.title, 'Low Latency, row 2');
});
