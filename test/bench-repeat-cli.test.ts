/**
 * Repeated runs end to end (`bench --num-runs`), the built CLI against the embedded truth-mode sim:
 * each run's block and record, the section over the runs and its record, the catalog's repeat
 * group (also when the JSONL file is ingested), and `compare` of two groups of the same sim
 * configuration (within noise) and of a slower one (beyond noise).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parsePythonJson } from '../src/catalog/ingest/jsonl.js';
import { openCatalog } from '../src/catalog/index.js';
import { runCli, type CliResult } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-repeat-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const db = join(workDir, 'catalog.db');
/**
 * Small and short: 20 requests of 8 tokens. 99%: compare tests at the level the baseline was
 * measured with, and two groups of one configuration on a shared machine must not be called
 * different by chance.
 */
const LOAD = [
  '--dataset-name', 'random', '--random-input-len', '32', '--random-output-len', '8', '--random-range-ratio', '1', '--num-prompts', '20',
  '--request-rate', '50', '--num-runs', '3', '--confidence-level', '0.99', '--disable-tqdm', '--db', db,
];

async function measureGroup(name: string, itlMs: number): Promise<{ result: CliResult; records: any[] }> {
  const file = join(workDir, `${name}.jsonl`);
  const result = await runCli(['bench', '--sim', `--model-path ${MODEL} --truth-ttft-ms 20 --truth-itl-ms ${itlMs}`, ...LOAD, '--output-file', file]);
  assert.equal(result.code, 0, result.stderr);
  const records = readFileSync(file, 'utf8').trim().split('\n').map((line) => parsePythonJson(line));
  return { result, records };
}

describe('bench --num-runs 3', () => {
  let same: Awaited<ReturnType<typeof measureGroup>>;
  let again: Awaited<ReturnType<typeof measureGroup>>;
  let slower: Awaited<ReturnType<typeof measureGroup>>;
  before(async () => {
    same = await measureGroup('same', 4);
    again = await measureGroup('again', 4);
    slower = await measureGroup('slower', 16);
  });

  test('prints each run\'s block, then the repeated runs section, one line per figure', () => {
    const { stdout } = same.result;
    assert.equal(stdout.match(/^=+ Serving Benchmark Result =+$/gm)?.length, 3);
    const section = stdout.slice(stdout.indexOf('servebench repeated runs'));
    assert.ok(stdout.lastIndexOf('Serving Benchmark Result') < stdout.indexOf('servebench repeated runs'), 'the section comes after the last run');
    for (const label of ['Output token throughput (tok/s)', 'Mean TTFT (ms)', 'P99 TTFT (ms)', 'Mean TPOT (ms)', 'P99 TPOT (ms)', 'Mean ITL (ms)', 'P99 ITL (ms)', 'Mean E2E Latency (ms)']) {
      const line = new RegExp(`^${label.replace(/[()]/g, '\\$&')}: +\\d+\\.\\d{2} ± \\d+\\.\\d{2} \\(99% CI, 3 runs\\), CV (\\d+\\.\\d|n/a)%?$`, 'm');
      assert.match(section, line, label);
    }
  });

  test('the JSONL file has each run\'s record and one aggregate record; the catalog has the runs as one group', () => {
    const { records } = same;
    assert.equal(records.length, 4);
    const runs = records.slice(0, 3);
    const group = runs[0].servebench.repeat.group;
    assert.deepEqual(runs.map((record) => record.servebench.repeat), [1, 2, 3].map((run) => ({ group, run, runs: 3 })));
    for (const record of runs) assert.equal(record.completed, 20);
    const summary = records[3].servebench.repeat_summary;
    assert.equal(summary.group, group);
    assert.equal(summary.runs, 3);
    assert.equal(summary.confidence_level, 0.99);
    const tpot = summary.figures.mean_tpot_ms;
    assert.deepEqual(tpot.values, runs.map((record) => record.mean_tpot_ms));
    assert.ok(Math.abs(tpot.mean - tpot.values.reduce((a: number, b: number) => a + b, 0) / 3) < 1e-9);
    assert.ok(tpot.half_width > 0 && tpot.cv >= 0);
    const catalog = openCatalog(db);
    try {
      assert.deepEqual(catalog.repeatGroup(group).map((run) => [run.repeat!.run, run.metrics.mean_tpot_ms]), runs.map((record, i) => [i + 1, record.mean_tpot_ms]));
    } finally {
      catalog.close();
    }
  });

  test('ingesting the JSONL file keeps the group and skips the aggregate record', async () => {
    const ingestDb = join(workDir, 'ingested.db');
    const ingest = await runCli(['ingest', '--db', ingestDb, join(workDir, 'same.jsonl')]);
    assert.equal(ingest.code, 0, ingest.stderr);
    const catalog = openCatalog(ingestDb);
    try {
      assert.equal(catalog.countRuns(), 3);
      assert.equal(catalog.repeatGroup(same.records[0].servebench.repeat.group).length, 3);
    } finally {
      catalog.close();
    }
  });

  test('compare: two groups of one sim configuration differ within the noise, a slower configuration beyond it', async () => {
    const idOf = (group: typeof same): string => {
      const catalog = openCatalog(db);
      try {
        return catalog.repeatGroup(group.records[0].servebench.repeat.group)[0]!.id;
      } finally {
        catalog.close();
      }
    };
    const [base, other, slow] = [idOf(same), idOf(again), idOf(slower)];
    const within = await runCli(['compare', '--db', db, base, other]);
    assert.equal(within.code, 0, within.stderr);
    assert.match(within.stdout, /Welch's test at 99%:/);
    assert.match(within.stdout, /^Mean TPOT \(ms\) .* within noise$/m);
    const beyond = await runCli(['compare', '--db', db, base, slow]);
    assert.match(beyond.stdout, /^Mean TPOT \(ms\) .* beyond noise$/m);
    assert.match(beyond.stdout, /^Mean E2E Latency \(ms\) .* beyond noise$/m);
  });
});

test('sweep --num-runs: each load runs N times, prints its means ± intervals, draws error bars and keeps each point as a group', async () => {
  const sweepDb = join(workDir, 'sweep.db');
  const plot = join(workDir, 'sweep.svg');
  const result = await runCli([
    'sweep', '--sim', `--model-path ${MODEL} --truth-ttft-ms 20 --truth-itl-ms 4`, '--concurrency', '1,4', '--prompts-per-load', '8', '--db', sweepDb, '--plot', plot,
    '--', '--dataset-name', 'random', '--random-input-len', '16', '--random-output-len', '6', '--random-range-ratio', '1', '--num-runs', '2', '--disable-tqdm',
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^note: every load runs 2 times; its figures are the means over its runs, ± the half-width of their 95% confidence interval$/m);
  for (const load of [1, 4]) {
    assert.match(result.stdout, new RegExp(`^concurrency ${load}: [\\d.]+ ± [\\d.]+ output tok/s, mean TTFT [\\d.]+ ± [\\d.]+ ms, mean TPOT [\\d.]+ ± [\\d.]+ ms \\(2 runs from [0-9a-f]{12}, 95% CI\\)`, 'm'));
  }
  assert.match(result.stdout, /^Recorded 4 runs in /m);
  assert.match(readFileSync(plot, 'utf8'), /bars: confidence interval over repeated runs/);
  const catalog = openCatalog(sweepDb);
  try {
    const groups = new Set(catalog.listRuns().map((run) => run.repeat?.group));
    assert.equal(groups.size, 2, 'one group per load');
    for (const group of groups) assert.equal(catalog.repeatGroup(group!).length, 2);
  } finally {
    catalog.close();
  }
});

