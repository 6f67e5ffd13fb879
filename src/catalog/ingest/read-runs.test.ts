import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../core/errors.js';
import { contentHash } from './content-hash.js';
import { readRunsFromText, recipeFromLaunchCommands } from './read-runs.js';

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

const RECORD = '{"backend": "sglang", "duration": 2.0, "completed": 40}';

test('JSONL: a bad line is skipped with one warning on each run; the good records are read', () => {
  const runs = readRunsFromText([RECORD, 'Traceback (most recent call last):', '', '{"duration": 1.0, ', RECORD.replace('40', '41')].join('\n'), 'r.jsonl');
  assert.deepEqual(runs.map((r) => [r.source.title, r.metrics.completed]), [['r.jsonl:1', 40], ['r.jsonl:5', 41]]);
  for (const run of runs) assert.deepEqual(run.warnings, ['r.jsonl: 2 lines are not a JSON result record (lines 2, 4); skipped']);
});

test('JSONL: a bad first line still reads the file as JSONL', () => {
  const runs = readRunsFromText(`garbage\n${RECORD}\n`, 'r.jsonl');
  assert.deepEqual(runs[0]!.warnings, ['r.jsonl: 1 line is not a JSON result record (line 1); skipped']);
});

test('JSONL: a hundred thousand bad lines make one short warning with the count and the first line numbers', () => {
  const text = `${RECORD}\n${'{not json\n'.repeat(100_000)}`;
  const [run] = readRunsFromText(text, 'r.jsonl');
  assert.deepEqual(run!.warnings, ['r.jsonl: 100000 lines are not a JSON result record (lines 2, 3, 4, 5, 6 and 99995 more); skipped']);
});

test('absurd values in a record are stored as null with a warning naming them', () => {
  const [run] = readRunsFromText('{"completed": 1e308, "mean_tpot_ms": -Infinity, "concurrency": 1e23, "duration": 2.0}', 'r.jsonl');
  assert.deepEqual(run!.metrics, { completed: null, mean_tpot_ms: null, concurrency: null, duration: 2 });
  assert.equal(run!.warnings!.length, 1);
  assert.match(run!.warnings![0]!, /^values outside physical bounds stored as not measured: completed 1e\+308 .*mean_tpot_ms -inf .*concurrency 1e\+23 /);
});

test('the format is told from the content, whatever the file is called', () => {
  const html = readRunsFromText(`<!DOCTYPE html><html><body><h2>Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms</h2><pre>${BLOCK}</pre></body></html>`, 'page.txt');
  assert.deepEqual([html.length, html[0]!.metrics.mean_tpot_ms, html[0]!.labels!.cards], [1, 20.5, '8']);
  const csv = readRunsFromText('Model,Hardware,Cards,TPOT(ms)\nQwen3-8B,H100,1,8.4\n', 'export.log');
  assert.deepEqual([csv[0]!.model, csv[0]!.metrics, csv[0]!.labels], ['Qwen3-8B', { mean_tpot_ms: 8.4 }, { hardware: 'H100', cards: '1', source: 'summary-table' }]);
  const aiperf = readRunsFromText('Metric,avg,min,max,p1,p99,std\nTime to First Token (ms),95.4,70.1,170.0,71.0,160.5,18.0\n', 'numbers.txt');
  assert.deepEqual([aiperf[0]!.toolVersion, aiperf[0]!.metrics.mean_ttft_ms], ['aiperf', 95.4]);
  const guidellm = readRunsFromText(JSON.stringify({ benchmarks: [{ metrics: { request_totals: { successful: 3 } } }] }), 'out.json');
  assert.deepEqual([guidellm[0]!.toolVersion, guidellm[0]!.metrics.completed], ['guidellm', 3]);
  const vllm = readRunsFromText('{"model_id": "m", "completed": 4}\n{"model_id": "m", "completed": 5}\n', 'appended.jsonl');
  assert.deepEqual(vllm.map((r) => [r.toolVersion, r.metrics.completed]), [['vllm bench serve', 4], ['vllm bench serve', 5]]);
});

test('per-request AIPerf records and a CSV that is no export nor summary table are clear errors', () => {
  const record = JSON.stringify({ metadata: { request_start_ns: 1 }, metrics: { time_to_first_token: { value: 1, unit: 'ms' } }, error: null });
  assert.throws(() => readRunsFromText(`${record}\n${record}\n`, 'profile_export.jsonl'), /holds AIPerf per-request records, not a run's results; ingest the run's profile_export_aiperf\.json or \.csv/);
  assert.throws(() => readRunsFromText('name,age\nbob,3\n', 'people.csv'), /people\.csv holds no bench_serving result block/);
});
