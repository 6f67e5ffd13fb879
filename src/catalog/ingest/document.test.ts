import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractDocument } from './document.js';

const BLOCK = (tpot: number): string =>
  ['============ Serving Benchmark Result ============', 'Backend:  sglang', `Mean TPOT (ms):  ${tpot}`, '='.repeat(50)].join('\n');

test('commands stay inside their recipe unless the heading says "same"', () => {
  const { runs } = extractDocument(
    [
      '## H100 x1, Qwen3-8B, TP1',
      'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 1',
      'python -m sglang.bench_serving --dataset-name random --num-prompts 10',
      BLOCK(5),
      '## H100 x2, Qwen3-8B, TP2',
      BLOCK(6),
      '## H100 x2, same deployment and benchmark plus --max-concurrency 4',
      BLOCK(7),
    ].join('\n'),
  );
  assert.equal(runs.length, 3);
  assert.equal(runs[0]!.recipe!.instances[0]!.config.tpSize, 1);
  assert.deepEqual(runs[0]!.args, { dataset_name: 'random', num_prompts: 10 });
  assert.equal(runs[1]!.recipe, null, 'no launch command in the second recipe');
  assert.equal(runs[1]!.args, null);
  assert.equal(runs[2]!.recipe, null);
  assert.deepEqual(runs[2]!.args, null, 'the previous recipe had no bench command to reuse');
  assert.ok(runs[2]!.warnings.includes('heading says "same deployment" but no earlier recipe has a launch command'));
  assert.ok(runs[2]!.warnings.includes('heading says "same benchmark" but no earlier recipe has a bench command'));
  assert.deepEqual(runs.map((r) => r.heading?.cards), [1, 2, 2]);
});

test('each block of a sweep log takes the Namespace printed before it; an unreadable one is a warning', () => {
  const { runs } = extractDocument(
    [
      "Namespace(backend='sglang', request_rate=1.0, max_concurrency=None)",
      BLOCK(5).replace('Backend:  sglang', 'Backend:  sglang\nTraffic request rate: 1.0'),
      "Namespace(backend='sglang', request_rate=2.0, max_concurrency=None",
      BLOCK(6),
    ].join('\n'),
  );
  assert.equal(runs.length, 2);
  assert.equal(runs[0]!.args!.request_rate, 1);
  assert.equal(runs[0]!.argsOrigin, 'namespace');
  assert.deepEqual(runs[0]!.warnings, []);
  assert.equal(runs[1]!.args, null);
  assert.match(runs[1]!.warnings[0]!, /^benchmark arguments line 7 unreadable: Namespace\( is not closed/);
  assert.notEqual(runs[0]!.text, runs[1]!.text);
});

test('a deeper heading stating nothing belongs to the recipe above; recipe sections are kept without result blocks', () => {
  const { runs, sections } = extractDocument(
    [
      '## Qwen3-8B H100 x2 PD Mixed 1K-1K',
      '### Model Deployment',
      'sglang serve --model-path Qwen/Qwen3-8B --tp 2',
      '### Benchmark',
      'for c in 1 8; do python -m sglang.bench_serving --num-prompts 10 --max-concurrency $c; done',
      BLOCK(5),
      '## Qwen3-8B H100 x4 PD Mixed 1K-1K',
      'sglang serve --model-path Qwen/Qwen3-8B --tp 4',
    ].join('\n'),
  );
  assert.deepEqual(sections.map((s) => [s.title, s.recipe?.instances[0]?.config.tpSize, s.facts.cards]), [
    ['Qwen3-8B H100 x2 PD Mixed 1K-1K', 2, 2],
    ['Qwen3-8B H100 x4 PD Mixed 1K-1K', 4, 4],
  ]);
  assert.equal(runs.length, 1);
  assert.equal(runs[0]!.section, 0);
  assert.equal(runs[0]!.recipe!.instances[0]!.config.tpSize, 2, 'the deployment under "Model Deployment" reaches the block under "Benchmark"');
  assert.deepEqual(runs[0]!.args, { num_prompts: 10 }, 'a concurrency the loop varies is not one the block can claim');
  assert.ok(runs[0]!.warnings.includes('the bench command runs in a loop with max_concurrency 1, 8; which run a result belongs to is unknown, so max_concurrency is left out'));
});

test('a recipe that says "Please turn to" another deploys as that recipe', () => {
  const { sections } = extractDocument(
    [
      '### DeepSeek R1 Low Latency 20ms 1',
      'Model: Deepseek R1',
      'Hardware: Atlas 800I A3 32Card',
      'DataSets: 6K1.6K',
      'python -m sglang.launch_server --model-path /m --tp 32 --disaggregation-mode decode',
      '### DeepSeek R1 Low Latency 20ms 2',
      'Model: Deepseek R1',
      'DataSets: 3.9K1K',
      'Please Turn to [DeepSeek R1 Low Latency 20ms](#deepSeek-r1-low-latency-20ms-1)',
      'python -m sglang.bench_serving --num-prompts 768',
    ].join('\n'),
  );
  assert.deepEqual(sections.map((s) => [s.recipe?.instances[0]?.config.tpSize, s.recipe?.origin]), [
    [32, 'file'],
    [32, 'recipe "DeepSeek R1 Low Latency 20ms 1" (the page refers to it)'],
  ]);
  assert.deepEqual(sections[1]!.args, { num_prompts: 768 });
});
