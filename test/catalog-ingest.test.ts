/**
 * `servebench ingest` end to end: the published reference logs, a recipe document and JSONL
 * records go in through the built CLI; the stored runs are read back through the catalog API.
 * Expected values are copied by hand from the files.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog, type RunRecord } from '../src/catalog/index.js';
import { runCli } from './fixtures/catalog/run-cli.js';
import { referenceLogPath } from './helpers/reference-logs.js';

const QWEN25 = referenceLogPath('qwen2.5-0.5b_cuda-graph_64-16_r0.log');
const CODER = referenceLogPath('qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log');
const DS64K = referenceLogPath('deepseek-v3.2-exp-w8a8_ascend-a3_64k-3k_c32.log');
const COOKBOOK = referenceLogPath('deepseek-v3.2_nvidia_cookbook-results.log');
const RECIPES = 'test/fixtures/catalog/ascend-recipes.md';
const JSONL = 'test/fixtures/catalog/bench-details.jsonl';

const dir = mkdtempSync(join(tmpdir(), 'servebench-ingest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function runsIn(db: string): RunRecord[] {
  const catalog = openCatalog(db, { mustExist: true });
  try {
    return catalog.listRuns().reverse();
  } finally {
    catalog.close();
  }
}

describe('ingesting the reference logs', () => {
  const db = join(dir, 'reference.db');
  const byFile = new Map<string, RunRecord[]>();

  before(() => {
    for (const file of [QWEN25, CODER, DS64K, COOKBOOK]) {
      const result = runCli(['ingest', '--db', db, file]);
      assert.equal(result.status, 0, result.stderr);
    }
    for (const run of runsIn(db)) byFile.set(run.source.file!, [...(byFile.get(run.source.file!) ?? []), run]);
  });

  test('each file yields the runs it contains', () => {
    assert.deepEqual([QWEN25, CODER, DS64K, COOKBOOK].map((f) => byFile.get(f)?.length), [1, 1, 1, 5]);
  });

  test('qwen3-coder-480b: every stated metric, the arguments, no recipe, hardware from the file name', () => {
    const [run] = byFile.get(CODER)!;
    assert.deepEqual(run!.metrics, {
      backend: 'sglang', request_rate: Infinity, max_concurrency: 80, completed: 320, duration: 322.16,
      total_input_tokens: 1120000, total_input_text_tokens: 1120000, total_input_vision_tokens: 0,
      total_output_tokens: 480000, total_output_tokens_retokenized: 478667, request_throughput: 0.99,
      input_throughput: 3476.5, output_throughput: 1489.93, max_output_tokens_per_s: 1840, max_concurrent_requests: 160,
      total_throughput: 4966.43, concurrency: 79.97, mean_e2e_latency_ms: 80507.59, median_e2e_latency_ms: 80407.05,
      mean_ttft_ms: 6412.33, median_ttft_ms: 6247.77, p99_ttft_ms: 10224.53, mean_tpot_ms: 49.43, median_tpot_ms: 49.31,
      p99_tpot_ms: 52.95, mean_itl_ms: 49.43, median_itl_ms: 46.89, p95_itl_ms: 52.56, p99_itl_ms: 56.78, max_itl_ms: 8901.2,
    });
    assert.equal(run!.model, '/root/.cache/modelscope/hub/models/Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot');
    assert.equal(run!.args!.random_input_len, 3500);
    assert.equal(run!.args!.random_range_ratio, 1);
    assert.equal(run!.args!.max_concurrency, 80);
    assert.equal(run!.recipe, null);
    assert.deepEqual(run!.labels, { hardware: 'ascend' });
    assert.deepEqual(run!.warnings, []);
  });

  test('deepseek-v3.2-exp 64k: accept length, environment, tool version', () => {
    const [run] = byFile.get(DS64K)!;
    assert.equal(Object.keys(run!.metrics).length, 31);
    assert.equal(run!.metrics.accept_length, 2.67);
    assert.equal(run!.metrics.max_itl_ms, 339.11);
    assert.equal(run!.metrics.p99_ttft_ms, 103305.62);
    assert.equal(run!.args!.random_input_len, 64000);
    assert.equal(run!.toolVersion, 'sglang 0.5.6.post2');
    assert.equal(run!.environment.torch_npu, '2.8.0.post2');
    assert.equal(run!.environment.CANN, 'version=8.5.0');
    assert.deepEqual(run!.labels, { hardware: 'ascend-a3' });
    assert.equal(run!.recipe, null);
  });

  test('qwen2.5: resolved Namespace (port from the second dump), not-set concurrency', () => {
    const [run] = byFile.get(QWEN25)!;
    assert.equal(run!.metrics.max_concurrency, null);
    assert.equal(run!.metrics.p90_e2e_latency_ms, 553.42);
    assert.equal(run!.metrics.total_output_tokens, 1653);
    assert.equal(Object.keys(run!.metrics).length, 31);
    assert.equal(run!.args!.port, 30000);
    assert.equal(run!.args!.output_file, '/mnt/weka/home/user/graph/sglang/bench_results/batch_prefill_cudagraph_short.json');
    assert.deepEqual(run!.labels, {});
  });

  test('cookbook: five recipes with launch flags, "same deployment" reuse and benchmark additions', () => {
    const runs = byFile.get(COOKBOOK)!;
    assert.deepEqual(runs.map((r) => r.metrics.mean_tpot_ms), [9.09, 106.16, 10.99, 49.18, 36.31]);
    assert.deepEqual(runs.map((r) => r.metrics.output_throughput), [95.62, 859.8, 86.2, 2530.66, 3421.84]);
    assert.deepEqual(runs.map((r) => r.metrics.accept_length), [2.46, undefined, 3.27, 3.26, 3.26]);
    assert.deepEqual(runs.map((r) => r.metrics.request_rate), [Infinity, Infinity, 64, 64, 64]);
    assert.deepEqual(runs.map((r) => Object.keys(r.metrics).length), [33, 30, 32, 32, 32]);
    assert.deepEqual(runs.map((r) => [r.labels.hardware, r.labels.cards]), [['B200', '8'], ['B200', '8'], ['H800', '16'], ['H800', '16'], ['H800', '16']]);
    assert.equal(runs[2]!.labels.nodes, '2');

    assert.deepEqual(runs[0]!.recipe!.instances[0]!.config, {
      modelPath: 'deepseek-ai/DeepSeek-V3.2-Exp', tpSize: 8, speculativeAlgorithm: 'EAGLE', speculativeNumSteps: 3,
      speculativeEagleTopk: 1, speculativeNumDraftTokens: 4,
    });
    assert.deepEqual(runs[1]!.recipe!.instances[0]!.config, {
      modelPath: 'deepseek-ai/DeepSeek-V3.2-Exp', tpSize: 8, dpSize: 8, epSize: 8, enableDpAttention: true,
    });
    const h800 = {
      servedModelName: 'DeepSeek-V3.2-Opt-dp2-mtp', tpSize: 16, dpSize: 2, enableDpAttention: true, maxRunningRequests: 128,
      contextLength: 65536, pageSize: 64, speculativeAlgorithm: 'EAGLE', speculativeNumSteps: 2, speculativeEagleTopk: 1,
      speculativeNumDraftTokens: 3, nnodes: 2,
    };
    assert.deepEqual(runs[2]!.recipe!.instances[0]!.config, h800);
    assert.deepEqual(runs[2]!.recipe!.env, { SGLANG_DEEPEP_LL_COMBINE_SEND_NUM_SMS: '32', SGLANG_SET_CPU_AFFINITY: '1' });
    assert.equal(runs[2]!.recipe!.origin, 'file');
    for (const reused of [runs[3]!, runs[4]!]) {
      assert.deepEqual(reused.recipe!.instances[0]!.config, h800);
      assert.equal(reused.recipe!.origin, 'previous recipe (same deployment)');
    }
    assert.deepEqual(
      runs.map((r) => [r.args!.num_prompts, r.args!.max_concurrency, r.args!.random_range_ratio]),
      [[10, 1, undefined], [1000, 100, undefined], [10, 1, undefined], [2048, 1024, undefined], [2048, 1024, 1]],
    );
    assert.ok(runs[2]!.warnings.includes('--model-path is the shell variable $MAPPED_MODEL_PATH; its value is unknown'));
    for (const r of runs.slice(2)) {
      assert.ok(r.warnings.includes('result block states request rate 64.0 but the bench command does not set --request-rate (default inf)'));
    }
    assert.ok(!runs[0]!.warnings.some((w) => w.includes('request rate')));
  });

  test('re-ingesting the same text stores nothing new', () => {
    const result = runCli(['ingest', '--db', db, QWEN25, CODER, DS64K, COOKBOOK]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /5 runs \(0 new, 5 already stored\)/);
    assert.equal(runsIn(db).length, 8);
    const relabel = runCli(['ingest', '--db', db, CODER, '--label', 'hardware=ascend-a3', '--label', 'cards=8']);
    assert.match(relabel.stdout, /1 run \(0 new, 1 already stored; labels added to the stored ones\)/);
    const coder = runsIn(db).find((r) => r.source.file === CODER)!;
    assert.deepEqual(coder.labels, { cards: '8', hardware: 'ascend-a3' });
    assert.equal(coder.metrics.output_throughput, 1489.93);
  });
});

describe('recipe documents and JSONL records', () => {
  const db = join(dir, 'recipes.db');

  test('a recipe page: summary-table quantization, PD roles, same deployment, typos, secrets redacted', () => {
    const result = runCli(['ingest', '--db', db, RECIPES]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.includes('sk-fixture-secret'), false);
    const runs = runsIn(db).filter((r) => r.labels.source !== 'summary-table');
    assert.deepEqual(runs.map((r) => r.labels.quantization), ['W8A8', 'W4A8', 'W4A8']);
    assert.deepEqual(runs.map((r) => r.labels.deploy), ['pd-mixed', 'pd-separation', 'pd-separation']);
    assert.deepEqual(runs.map((r) => r.labels.dataset), ['3.5K-1.5K', '3.5K-1.5K', '2K-2K']);
    assert.deepEqual(runs[1]!.recipe!.instances.map((i) => i.role), ['prefill', 'decode', 'router']);
    assert.equal(runs[2]!.recipe!.origin, 'previous recipe (same deployment)');
    assert.equal(runs[1]!.metrics.max_concurrency, 128, 'read through the old "reqeuest" label');
    assert.equal(runs[0]!.metrics.mean_ttft_ms, 2100, 'duplicated line read once');
    assert.deepEqual(runs[1]!.warnings, ['result block states request rate 8.0 but the bench command does not set --request-rate (default inf)']);
    assert.equal(runs[0]!.recipe!.env.OPENAI_API_KEY, '<redacted>');
    assert.equal(runs[0]!.recipe!.instances[0]!.flags['--api-key'], '<redacted>');
    assert.equal(JSON.stringify(runs).includes('sk-fixture-secret'), false);
  });

  test('summary rows of the page are runs of their own, each linked to the recipe it summarises', () => {
    const all = runsIn(db);
    const recipes = all.filter((r) => r.labels.source !== 'summary-table');
    const rows = all.filter((r) => r.labels.source === 'summary-table');
    assert.deepEqual(
      rows.map((r) => [r.labels.cards, r.labels.deploy, r.labels.dataset, r.labels['target-latency-ms'], r.labels.quantization]),
      [['8', 'pd-mixed', '3.5K-1.5K', '50', 'W8A8'], ['16', 'pd-separation', '3.5K-1.5K', '20', 'W4A8'], ['16', 'pd-separation', '2K-2K', '20', 'W4A8']],
    );
    assert.deepEqual(rows.map((r) => r.labels['recipe-run']), recipes.map((r) => r.id));
    assert.deepEqual(rows.map((r) => r.metrics), [{}, {}, {}], 'a TPOT written as "50ms" is the latency target, not a measurement');
    assert.deepEqual(rows[1]!.recipe!.instances.map((i) => i.role), ['prefill', 'decode', 'router']);
    assert.match(rows[0]!.source.title!, /^summary table 1, row 1 → Qwen3-235B Atlas 800I A3-8Card PD Mixed 3.5K-1.5K 50ms$/);
  });

  test('JSONL records with details become runs with per-request records; user labels apply', () => {
    const result = runCli(['ingest', '--db', db, JSONL, '--label', 'hardware=h100', '--label', 'cards=1']);
    assert.equal(result.status, 0, result.stderr);
    const runs = runsIn(db).filter((r) => r.source.file === JSONL);
    assert.equal(runs.length, 2);
    assert.deepEqual(runs.map((r) => r.args!.tag), ['base', 'slower-ttft']);
    assert.deepEqual(runs.map((r) => r.requestCount), [40, 40]);
    assert.deepEqual(runs[0]!.labels, { cards: '1', hardware: 'h100' });
    assert.deepEqual(runs[0]!.serverInfo, { version: '0.5.8', tp_size: 1 });
    // The deployment the record's server reported, read as bench reads it when it records the run itself.
    assert.deepEqual(runs[0]!.recipe, { instances: [{ role: 'mixed', launcher: 'sglang 0.5.8', config: { tpSize: 1 }, flags: {} }], env: {}, origin: "the server's /get_server_info" });
    assert.equal(runs[0]!.toolVersion, 'sglang 0.5.8');
    assert.equal(runs[0]!.metrics.request_rate, Infinity);
    assert.equal('ttfts' in runs[0]!.metrics, false);
  });
});

describe('a JSONL file with bad lines and absurd values', () => {
  const db = join(dir, 'faulty.db');
  const file = join(dir, 'faulty.jsonl');
  const good = readFileSync(JSONL, 'utf8').split('\n')[0]!;
  const absurd = '{"backend": "sglang", "duration": 2.0, "completed": 1e308, "mean_tpot_ms": -Infinity, "concurrency": 1e23, "output_throughput": -5.0}';
  let result: ReturnType<typeof runCli>;
  before(() => {
    // 200,000 bad lines: uncapped, their line numbers alone would make a 1.5 MB warning.
    writeFileSync(file, [good, 'not json', ...Array<string>(200_000).fill('{"cut": '), absurd, ''].join('\n'));
    result = runCli(['ingest', '--db', db, file]);
  });

  test('the good records are stored; the bad lines make one short warning per run', () => {
    assert.equal(result.status, 0, result.stderr);
    const runs = runsIn(db);
    assert.equal(runs.length, 2);
    const skipped = `${file}: 200001 lines are not a JSON result record (lines 2, 3, 4, 5, 6 and 199996 more); skipped`;
    for (const run of runs) assert.equal(run.warnings[0], skipped);
    assert.equal(result.stdout.split(skipped).length - 1, 2, result.stdout);
    assert.ok(result.stdout.length < 4000, `stdout is ${result.stdout.length} characters`);
    assert.equal(runs[0]!.requestCount, 40);
  });

  test('values outside physical bounds are stored as null and named in a warning', () => {
    const run = runsIn(db)[1]!;
    assert.deepEqual(run.metrics, { backend: 'sglang', duration: 2, completed: null, mean_tpot_ms: null, concurrency: null, output_throughput: null });
    assert.match(run.warnings[1]!, /^values outside physical bounds stored as not measured: completed 1e\+308 \(must be a whole number from 0 to 1e15\); mean_tpot_ms -inf .*concurrency 1e\+23 .*output_throughput -5 /);
    assert.match(result.stdout, /warning: values outside physical bounds/);
  });
});

describe('bad input leaves the catalog untouched with a one-line error', () => {
  const db = join(dir, 'bad.db');
  before(() => assert.equal(runCli(['ingest', '--db', db, QWEN25]).status, 0));

  const cases: Array<[name: string, content: string | Buffer, message: RegExp]> = [
    ['binary.log', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3, 0, 0, 0]), /is a binary file, not a bench log/],
    ['truncated.log', "benchmark_args=Namespace(backend='sglang', port=\nStarting warmup with 1 sequences...\n", /holds no bench_serving result block/],
    ['notes.txt', 'just some notes about a deployment\nnothing measured\n', /holds no bench_serving result block/],
    ['empty.log', '', /is empty; nothing ingested/],
    ['broken.jsonl', '{"duration": 1.0, \n', /holds no readable JSON result record/],
  ];
  for (const [name, content, message] of cases) {
    test(name, () => {
      const file = join(dir, name);
      writeFileSync(file, content);
      const result = runCli(['ingest', '--db', db, file]);
      assert.equal(result.status, 1, 'nothing could be read');
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.equal(runsIn(db).length, 1);
    });
  }

  test('bad files among good ones: one line for each, the good ones stored, exit 0', () => {
    const result = runCli(['ingest', '--db', db, join(dir, 'binary.log'), CODER, join(dir, 'empty.log')]);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.stderr.trim().split('\n').map((l) => /binary\.log|empty\.log/.exec(l)?.[0]), ['binary.log', 'empty.log']);
    assert.match(result.stdout, /qwen3-coder-480b-w8a8_ascend_3500-1500_c80\.log: 1 run \(1 new/);
    assert.equal(runsIn(db).length, 2, 'what was stored before is kept, the good file added');
  });

  test('a log cut inside the result block is stored with what it has and a warning', () => {
    const file = join(dir, 'cut.log');
    copyFileSync(CODER, file);
    const text = runCli(['ingest', '--db', join(dir, 'cut.db'), writeCut(file)]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /warning: result block has no closing ===== line \(truncated\?\)/);
    const [run] = runsIn(join(dir, 'cut.db'));
    assert.equal(run!.metrics.mean_ttft_ms, 6412.33);
    assert.equal('mean_tpot_ms' in run!.metrics, false);
  });

  test('a corrupt catalog and a missing file', () => {
    const corrupt = join(dir, 'corrupt.db');
    writeFileSync(corrupt, Buffer.alloc(8192, 0x41));
    const result = runCli(['ingest', '--db', corrupt, QWEN25]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^servebench ingest: error: .*corrupt.db is not a servebench catalog or is corrupt; move it away or pass another --db\n$/);
    const missing = runCli(['ingest', '--db', db, join(dir, 'nope.log')]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /nope.log: no such file/);
    assert.equal(runCli(['ingest', '--db', db]).status, 2);
  });
});

/** Cuts a copy of a log right after its TTFT section, as an interrupted copy-paste would. */
function writeCut(file: string): string {
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.slice(0, text.indexOf('-----Time per Output Token')));
  return file;
}
