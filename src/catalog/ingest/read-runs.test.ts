import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../core/errors.js';
import { contentHash, readRunsFromText, recipeFromLaunchCommands } from './read-runs.js';

const BLOCK = ['============ Serving Benchmark Result ============', 'Mean TPOT (ms):  20.5', 'Output token throughput (tok/s): 800', '='.repeat(50)].join('\n');

test('plain-text recipe headings, file-name hardware only without a heading, user labels win', () => {
  const runs = readRunsFromText(
    `Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms\n${BLOCK}\n`,
    'logs/qwen_h100_x.log',
    { labels: { cards: '4' } },
  );
  assert.equal(runs.length, 1);
  assert.equal(runs[0]!.source.title, 'Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms');
  assert.deepEqual(runs[0]!.labels, {
    hardware: 'Atlas 800I A3', cards: '4', deploy: 'pd-mixed', 'target-latency-ms': '50', dataset: '3.5K-1.5K',
  });
  assert.equal(runs[0]!.model, 'Qwen3-235B');
});

test('--launch commands attach a deployment to runs whose file has none', () => {
  const warnings: string[] = [];
  const recipe = recipeFromLaunchCommands(['--tp 16 --dp-size 4 --enable-dp-attention', 'python -m sglang_router.launch_router --pd-disaggregation'], warnings);
  assert.deepEqual(recipe.instances.map((i) => [i.role, i.config.tpSize]), [['mixed', 16], ['router', undefined]]);
  assert.equal(recipe.origin, 'command line (--launch)');
  assert.throws(() => recipeFromLaunchCommands(['python -m sglang.bench_serving --num-prompts 1'], []), UserError);
  const [run] = readRunsFromText(BLOCK, 'x.log', { launchCommands: ['sglang serve --tp 2'] });
  assert.equal(run!.recipe!.instances[0]!.config.tpSize, 2);
});

test('a pretty-printed JSON result file is one record', () => {
  const runs = readRunsFromText('{\n  "backend": "sglang",\n  "duration": 1.5,\n  "request_rate": Infinity\n}\n', 'r.json');
  assert.equal(runs.length, 1);
  assert.deepEqual(runs[0]!.metrics, { backend: 'sglang', duration: 1.5, request_rate: Infinity });
});

test('content hashes ignore line endings and trailing spaces only', () => {
  assert.equal(contentHash('a  \r\nb\n'), contentHash('a\nb'));
  assert.notEqual(contentHash('a\nb'), contentHash('a\nc'));
  assert.throws(() => readRunsFromText('\u0000\u0001binary', 'x.bin'), /binary file/);
});
