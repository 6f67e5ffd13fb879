/**
 * `servebench ingest` of every kind of file a team has — a page saved as text (one cell per line),
 * an HTML page, a Markdown page, a CSV summary table, a recipe script with shell variables, and
 * the results of vLLM, GuideLLM, AIPerf and GenAI-Perf — then `table --format csv` and `compare`,
 * all through the built CLI against a temporary catalog. The tools' files are ingested under
 * neutral names: their format is told from their content. Expected values are copied by hand
 * from the fixtures.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog, type RunRecord } from '../src/catalog/index.js';
import { parseCsv } from '../src/catalog/ingest/csv-table.js';
import { runCli } from './fixtures/catalog/run-cli.js';

const PAGES = 'test/fixtures/catalog/pages';
const TOOLS = 'test/fixtures/catalog/tools';
const TEXT_PAGE = `${PAGES}/best-practice-saved-as-text.txt`;
const HTML_PAGE = `${PAGES}/best-practice.html`;
const MARKDOWN_PAGE = `${PAGES}/best-practice.md`;
const CSV_TABLE = `${PAGES}/summary-table.csv`;
const SCRIPT = `${PAGES}/two-node-recipe.log`;

const dir = mkdtempSync(join(tmpdir(), 'servebench-formats-'));
const db = join(dir, 'catalog.db');
after(() => rmSync(dir, { recursive: true, force: true }));

/** The tools' files under names that say nothing of their format. */
const TOOL_FILES = {
  vllm: ['vllm-serve-result.json', 'result-1.json'],
  guidellm: ['guidellm-benchmarks.json', 'result-2.json'],
  aiperfJson: ['profile_export_aiperf.json', 'result-3.json'],
  aiperfCsv: ['profile_export_aiperf.csv', 'result-4.txt'],
  genaiJson: ['profile_export_genai_perf.json', 'result-5.json'],
  genaiCsv: ['profile_export_genai_perf.csv', 'result-6.txt'],
} as const;
const tool = (name: keyof typeof TOOL_FILES): string => join(dir, TOOL_FILES[name][1]);

function cli(...args: string[]): string {
  const result = runCli([...args, '--db', db]);
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

function runsIn(): RunRecord[] {
  const catalog = openCatalog(db, { mustExist: true });
  try {
    return catalog.listRuns().reverse();
  } finally {
    catalog.close();
  }
}

const fromFile = (file: string): RunRecord[] => runsIn().filter((r) => r.source.file === file);
const summaryRuns = (file: string): RunRecord[] => fromFile(file).filter((r) => r.labels.source === 'summary-table');

before(() => {
  for (const [fixture, neutral] of Object.values(TOOL_FILES)) copyFileSync(join(TOOLS, fixture), join(dir, neutral));
  cli('ingest', TEXT_PAGE, HTML_PAGE, MARKDOWN_PAGE, CSV_TABLE, SCRIPT, ...Object.keys(TOOL_FILES).map((k) => tool(k as keyof typeof TOOL_FILES)));
});

describe('pages as people save them', () => {
  test('every summary row of every page is a row of table --format csv, with the values the page states', () => {
    const table = parseCsv(cli('table', '--format', 'csv')).filter((r) => r.length > 1);
    const header = table[0]!;
    const byRun = new Map(table.slice(1).map((row) => [row[header.indexOf('run_id')]!, Object.fromEntries(header.map((h, i) => [h, row[i]!]))]));
    const counts = [TEXT_PAGE, HTML_PAGE, MARKDOWN_PAGE, CSV_TABLE].map((f) => summaryRuns(f).length);
    assert.deepEqual(counts, [5, 4, 3, 3]);
    for (const file of [TEXT_PAGE, HTML_PAGE, MARKDOWN_PAGE, CSV_TABLE]) {
      for (const run of summaryRuns(file)) assert.ok(byRun.has(run.id), `${run.source.title} of ${file} is in the table`);
    }
    const pick = (file: string, i: number): Record<string, string> => byRun.get(summaryRuns(file)[i]!.id)!;
    const fields = (row: Record<string, string>): string[] =>
      ['model', 'hardware', 'cards', 'deploy_mode', 'dataset', 'quantization', 'mean_tpot_ms', 'output_tok_s_per_card'].map((h) => row[h]!);
    // The page's second table lists its columns in another order; "1,120.000" has a thousands separator.
    assert.deepEqual(fields(pick(TEXT_PAGE, 4)), ['Qwen3-32B', 'Atlas 800I A3', '2', 'PD mixed', '2K-2K', 'W8A8', '48.20', '1120.00']);
    assert.deepEqual(fields(pick(TEXT_PAGE, 0)), ['Qwen3-235B', 'Atlas 800I A3', '8', 'PD mixed', '11K-1K', 'BF16', '9.70', '11.69']);
    assert.deepEqual(fields(pick(HTML_PAGE, 3)), ['DeepSeek-R1', 'Atlas 800I A3', '8', 'PD mixed', '64K-1K (90% prefix cache hit rate)', 'W4A8 INT8', '', '']);
    assert.deepEqual(fields(pick(MARKDOWN_PAGE, 2)), ['Qwen3-30B', 'Atlas 800I A3', '1', 'PD mixed', '3.5K-1.5K', 'W8A8', '', '']);
    assert.deepEqual(fields(pick(CSV_TABLE, 1)), ['Qwen3-8B', 'H100', '2', 'PD mixed', '1K-1K', 'FP8', '7.90', '2010.50']);
  });

  test('a summary row is linked to the recipe it summarises: by its #anchor, else by the facts both state', () => {
    const html = fromFile(HTML_PAGE);
    const recipe = html.find((r) => r.labels.source !== 'summary-table')!;
    assert.deepEqual(
      summaryRuns(HTML_PAGE).map((r) => [r.source.title, r.labels['recipe-run'] ?? null]),
      [
        ['Low Latency, row 1 → DeepSeek-R1 W8A8 16P 3.5K+1.5K 20ms', recipe.id],
        ['Low Latency, row 2 → DeepSeek-R1 W8A8 16P 3.5K+1.5K 20ms MTP', null],
        ['High Throughput, row 1 → DeepSeek-R1 W4A8 8P 2K+2K 50ms', null],
        ['High Throughput, row 2', null],
      ],
    );
    const mtp = summaryRuns(HTML_PAGE)[1]!;
    assert.equal(mtp.recipe!.instances[1]!.config.speculativeNumSteps, 3, 'a recipe without a result block still lends its deployment');
    const referred = summaryRuns(MARKDOWN_PAGE)[2]!;
    assert.deepEqual([referred.recipe!.origin, referred.recipe!.instances[0]!.config.tpSize, referred.args!.max_concurrency], [
      'recipe "Qwen3 30B High Throughput 50ms" (summary table link), deployed as recipe "Qwen3 30B Low Latency 15ms" (the page refers to it)', 2, 64,
    ], '"Please turn to [...](#anchor)" lends that recipe\'s deployment');
    const text = summaryRuns(TEXT_PAGE);
    assert.deepEqual(text.map((r) => r.labels['recipe-run'] ?? null), [null, fromFile(TEXT_PAGE)[0]!.id, null, null, null]);
  });

  test('no value is invented: a latency target is no measurement, a runtime value stays a warning', () => {
    for (const run of summaryRuns(HTML_PAGE)) assert.equal('mean_tpot_ms' in run.metrics, false, run.source.title!);
    assert.equal(summaryRuns(HTML_PAGE)[0]!.labels['target-latency-ms'], '20');
    const [script] = fromFile(SCRIPT);
    assert.deepEqual(script!.warnings, ['--context-length is the shell variable ${CONTEXT_LENGTH}; its value is unknown']);
    assert.equal('contextLength' in script!.recipe!.instances[0]!.config, false);
  });

  test('recipe scripts: what the script determines is resolved, per-node loops give each node its rank', () => {
    const [script] = fromFile(SCRIPT);
    const [launch] = script!.recipe!.instances;
    assert.deepEqual(launch!.config, {
      modelPath: '/models/DeepSeek-V3.2', tpSize: 16, nnodes: 2, dpSize: 2, enableDpAttention: true, maxRunningRequests: 128,
    });
    assert.deepEqual([launch!.flags['--node-rank'], launch!.flags['--dist-init-addr']], ['0,1', '10.0.0.1:5000']);
    const highThroughput = summaryRuns(TEXT_PAGE)[3]!;
    assert.deepEqual(
      highThroughput.recipe!.instances.map((i) => [i.role, i.config.tpSize, i.config.nnodes, i.flags['--host'], i.flags['--disaggregation-bootstrap-port']]),
      [
        ['prefill', 16, 1, '192.168.0.1', '8998'],
        ['prefill', 16, 1, '192.168.0.2', '8999'],
        ['decode', 32, 2, '192.168.0.3,192.168.0.4', undefined],
      ],
    );
  });

  test('ingesting the same files again stores nothing new', () => {
    assert.match(cli('ingest', TEXT_PAGE, HTML_PAGE), /6 runs \(0 new, 6 already stored\)[\s\S]*5 runs \(0 new, 5 already stored\)/);
  });
});

describe("other tools' results", () => {
  test('each is read from its content, with the figures it states', () => {
    const [vllm] = fromFile(tool('vllm'));
    assert.deepEqual([vllm!.toolVersion, vllm!.model, vllm!.metrics.mean_e2e_latency_ms, vllm!.metrics.total_throughput, vllm!.requestCount], ['vllm bench serve', 'Qwen/Qwen3-8B', 1175, 230.4, 4]);
    const guidellm = fromFile(tool('guidellm'));
    assert.deepEqual(guidellm.map((r) => [r.args!.max_concurrency, r.metrics.mean_tpot_ms, r.metrics.output_throughput]), [[4, 22.6, 170.7], [1, 20.3, 46.9]]);
    const [aiperf] = fromFile(tool('aiperfJson'));
    assert.deepEqual([aiperf!.toolVersion, aiperf!.metrics.mean_itl_ms, aiperf!.metrics.total_output_tokens, aiperf!.args!.max_concurrency], ['aiperf 0.3.0', 18.03, 25600, 4]);
    const [aiperfCsv] = fromFile(tool('aiperfCsv'));
    assert.deepEqual([aiperfCsv!.toolVersion, aiperfCsv!.metrics.p99_e2e_latency_ms, aiperfCsv!.metrics.completed], ['aiperf', 1420.3, 200]);
    const [genai] = fromFile(tool('genaiJson'));
    assert.deepEqual([genai!.toolVersion, genai!.metrics.median_ttft_ms, genai!.metrics.output_throughput], ['genai-perf', 108, 371.2]);
    const [genaiCsv] = fromFile(tool('genaiCsv'));
    assert.deepEqual([genaiCsv!.toolVersion, genaiCsv!.metrics.mean_e2e_latency_ms, genaiCsv!.metrics.request_throughput], ['genai-perf', 1350, 2.9]);
  });

  test('compare says which metrics the runs define differently, and how each defines them', () => {
    const [vllm] = fromFile(tool('vllm'));
    const [aiperf] = fromFile(tool('aiperfJson'));
    const out = cli('compare', vllm!.id, aiperf!.id);
    assert.match(out, /^mean_itl_ms \*/m);
    assert.match(out, /^mean_e2e_latency_ms {2}/m, 'a metric both define alike is not marked');
    assert.ok(out.includes(`* itl_ms is defined differently: ${vllm!.id}: every gap between consecutive streamed chunks`), out);
    assert.ok(out.includes(`${aiperf!.id}: (latency - TTFT) / (output tokens - 1) of each request`), out);
    assert.match(out, /\* ttft_ms is defined differently: .*first streamed chunk that has choices/);
    assert.match(cli('show', aiperf!.id), /metrics measured otherwise than bench_serving's:\n {2}mean_itl_ms, median_itl_ms, .*: \(latency - TTFT\)/);
  });

  test('table marks the figures another tool defined differently and says how', () => {
    const md = cli('table', '--model', 'Qwen3-8B');
    const [concurrent] = fromFile(tool('guidellm'));
    assert.match(md, /\| 22\.60 † \|/);
    assert.ok(md.includes(`† mean TPOT of run ${concurrent!.id}: (last token - request start) / output tokens of each request, first token included`), md);
    const csv = parseCsv(cli('table', '--format', 'csv', '--model', 'Qwen3-8B'));
    const row = csv.find((r) => r.includes(concurrent!.id))!;
    assert.match(row[csv[0]!.indexOf('definition_notes')]!, /^mean TPOT: \(last token - request start\)/);
    assert.equal(row[csv[0]!.indexOf('mean_tpot_ms')], '22.60', 'CSV figures stay plain numbers');
  });
});
