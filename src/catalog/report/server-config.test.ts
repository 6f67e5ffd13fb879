import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RecipeInstance, RunRecord } from '../types.js';
import { accuracyColumns, linkedEvalRuns, linkedPerformanceRuns, linkedRuns } from './eval-runs.js';
import { sameServerConfiguration } from './server-config.js';

function run(id: string, fields: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    recordedAt: '2026-01-31T12:00:00Z',
    startedAt: null,
    model: 'Qwen/Qwen3-8B',
    toolVersion: null,
    source: { kind: 'bench', file: null, contentHash: id },
    args: null,
    metrics: {},
    serverInfo: null,
    environment: {},
    labels: {},
    recipe: null,
    warnings: [],
    requestCount: 0,
    mode: 'measured',
    ...fields,
  };
}

function evalRun(id: string, task: string, accuracy: number | null, fields: Partial<RunRecord> = {}): RunRecord {
  const metrics = { task, num_shots: 5, questions: 200, accuracy, answers: accuracy === null ? 'synthetic' : 'scored' };
  return run(id, { source: { kind: 'eval', file: null, contentHash: id }, metrics, ...fields });
}

function recipeOf(config: RecipeInstance['config']): RunRecord['recipe'] {
  return { instances: [{ role: 'mixed', launcher: 'sglang serve', config, flags: {} }], env: {}, origin: 'file' };
}

const SGLANG_INFO = { model_path: '/models/Qwen3-8B', tp_size: 8, dp_size: 1, chunked_prefill_size: 8192, quantization: null, version: '0.5.6' };

test('the same model and the same stated settings are one configuration; a differing setting is another', () => {
  const a = run('a', { serverInfo: SGLANG_INFO });
  assert.ok(sameServerConfiguration(a, run('b', { serverInfo: { ...SGLANG_INFO, mem_fraction_static: 0.8 } })));
  assert.ok(!sameServerConfiguration(a, run('c', { serverInfo: { ...SGLANG_INFO, tp_size: 4 } })));
  assert.ok(!sameServerConfiguration(a, run('d', { model: 'Qwen/Qwen3-32B', serverInfo: SGLANG_INFO })));
});

test("server info and a recipe compare where both say something; the model by its short name", () => {
  const info = run('a', { model: '/models/Qwen3-8B', serverInfo: SGLANG_INFO });
  assert.ok(sameServerConfiguration(info, run('b', { recipe: recipeOf({ modelPath: 'Qwen/Qwen3-8B', tpSize: 8 }) })));
  assert.ok(!sameServerConfiguration(info, run('c', { recipe: recipeOf({ modelPath: 'Qwen/Qwen3-8B', tpSize: 2 }) })));
});

test('a run that states no settings is alike by model, unless the hardware labels or sim-ness differ', () => {
  const bare = run('a');
  assert.ok(sameServerConfiguration(bare, run('b', { serverInfo: SGLANG_INFO })));
  assert.ok(!sameServerConfiguration(run('c', { labels: { hardware: 'H100' } }), run('d', { labels: { hardware: 'H200' } })));
  assert.ok(sameServerConfiguration(run('e', { labels: { hardware: 'H100' } }), bare));
  const sim = run('f', { serverInfo: { ...SGLANG_INFO, version: 'servebench-sim 0.1.0' } });
  assert.ok(!sameServerConfiguration(sim, run('g', { serverInfo: SGLANG_INFO })));
  assert.ok(sameServerConfiguration(sim, run('h', { labels: { deploy: 'simulated' } })));
  assert.ok(!sameServerConfiguration(run('i', { model: null }), run('j', { model: null })));
});

test('a performance run gets the newest eval run of each task of its configuration; an eval run lists its performance runs', () => {
  const perf = run('perf', { serverInfo: SGLANG_INFO, metrics: { mean_tpot_ms: 12.5, output_throughput: 900, max_concurrency: 64 } });
  const otherPerf = run('other', { serverInfo: { ...SGLANG_INFO, tp_size: 4 } });
  // Newest first, as listRuns gives them.
  const runs = [
    evalRun('gsm-new', 'gsm8k', 0.9, { serverInfo: SGLANG_INFO }),
    evalRun('mmlu-tp4', 'mmlu', 0.7, { serverInfo: { ...SGLANG_INFO, tp_size: 4 } }),
    evalRun('gsm-old', 'gsm8k', 0.8, { serverInfo: SGLANG_INFO }),
    perf,
    otherPerf,
  ];
  assert.deepEqual([...linkedEvalRuns(perf, runs)].map(([task, r]) => [task, r.id]), [['gsm8k', 'gsm-new']]);
  assert.deepEqual(linkedPerformanceRuns(runs[0]!, runs).map((r) => r.id), ['perf']);
  assert.deepEqual(linkedRuns(perf, runs), [{ id: 'gsm-new', summary: 'gsm8k accuracy 0.900 over 200 questions' }]);
  assert.deepEqual(linkedRuns(runs[0]!, runs), [{ id: 'perf', summary: 'dataset -, concurrency 64, mean TPOT 12.50 ms, 900.00 output tok/s' }]);
  const columns = accuracyColumns([perf, otherPerf], runs);
  assert.deepEqual(columns.map((c) => [c.task, [...c.byRun]]), [
    ['gsm8k', [['perf', '0.900']]],
    ['mmlu', [['other', '0.700']]],
  ]);
});

test('accuracy from the sim reads n/a', () => {
  const perf = run('perf', { labels: { deploy: 'simulated' } });
  const runs = [evalRun('e', 'gsm8k', null, { serverInfo: { version: 'servebench-sim 0.1.0' } }), perf];
  assert.deepEqual(linkedRuns(perf, runs), [{ id: 'e', summary: 'gsm8k accuracy n/a (sim) over 200 questions' }]);
});
