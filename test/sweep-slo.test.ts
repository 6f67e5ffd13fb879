/**
 * `servebench sweep` in prediction mode, end to end (the built CLI): the SLO search finds the same
 * knee as an exhaustive sweep, within one step of its grid, in fewer runs; every point is a run in
 * the catalog with its sweep labels; the table, summary, plot and JSON summary are written.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { deriveCards, deriveDeployMode, deriveHardware, openCatalog } from '../src/catalog/index.js';
import { storedCrossValidation } from '../src/sim/model/efficiency.js';
import { formatExpectedErrorNote } from '../src/predict/expected-error.js';
import { runCli } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-sweep-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

const PREDICT = ['--predict', '--model-path Qwen/Qwen2.5-7B-Instruct --hardware h100', '--prompts-per-load', '4'];
const WORKLOAD = ['--', '--dataset-name', 'random', '--random-input-len', '512', '--random-output-len', '128', '--seed', '1'];
const STEP = 4;

interface SweepSummary {
  runs: number;
  knee_load: number | null;
  peak_load: number | null;
  points: Array<{ load: number; run_id: string | null; slo_met: boolean | null; metrics: Record<string, number>; goodput: { request_goodput: number } | null }>;
}

function readSummary(path: string): SweepSummary {
  return JSON.parse(readFileSync(path, 'utf8')) as SweepSummary;
}

describe('SLO search against an exhaustive sweep (prediction mode)', () => {
  test('the search lands within one grid step of the exhaustive knee, with fewer runs', async () => {
    const gridJson = join(workDir, 'grid.json');
    const searchJson = join(workDir, 'search.json');
    const db = join(workDir, 'catalog.db');
    const plot = join(workDir, 'sweep.svg');
    const exhaustive = await runCli(['sweep', ...PREDICT, '--concurrency', `${STEP}:64:+${STEP}`, '--json', gridJson, '--db', db, '--plot', plot, ...WORKLOAD]);
    assert.equal(exhaustive.code, 0, exhaustive.stderr);
    const grid = readSummary(gridJson);
    assert.equal(grid.points.length, 64 / STEP);

    // An SLO between the TPOTs of two mid-grid points, so the knee is inside the grid whatever the calibration.
    const tpot = (load: number): number => grid.points.find((p) => p.load === load)!.metrics.mean_tpot_ms as number;
    const limitMs = Number(((tpot(32) + tpot(32 + STEP)) / 2).toFixed(3));
    assert.ok(tpot(32) < limitMs && limitMs < tpot(32 + STEP), `TPOT grows from 32 to ${32 + STEP}`);
    const gridKnee = Math.max(...grid.points.filter((p) => (p.metrics.mean_tpot_ms as number) <= limitMs).map((p) => p.load));

    const search = await runCli(['sweep', ...PREDICT, '--slo', `tpot=${limitMs}ms`, '--tolerance', '0', '--max-load', '64', '--json', searchJson, '--no-catalog', ...WORKLOAD]);
    assert.equal(search.code, 0, search.stderr);
    const found = readSummary(searchJson);
    assert.ok(found.knee_load !== null, 'the search finds a knee');
    assert.ok(Math.abs(found.knee_load - gridKnee) < STEP, `search ${found.knee_load} vs grid ${gridKnee}`);
    assert.ok(found.runs < grid.runs, `${found.runs} search runs vs ${grid.runs}`);

    assert.match(search.stdout, /^SLO mean-tpot=[\d.]+ms: highest load meeting it is concurrency \d+ \(searched in \d+ runs\): goodput [\d.]+ req\/s/m);
    assert.match(search.stdout, /^concurrency +ok\/total +req\/s +out tok\/s +tok\/s\/card .* goodput req\/s +SLO$/m);
    // Predicted figures come with the stored fit's expected error: once under the table, and beside the summary's throughput.
    const expectedError = storedCrossValidation();
    for (const { stdout } of [exhaustive, search]) assert.ok(stdout.split('\n').includes(formatExpectedErrorNote(expectedError)), stdout);
    const withError = expectedError === null ? '' : ` \\(±[\\d.]+%\\)`;
    assert.match(exhaustive.stdout, new RegExp(`^Peak output throughput: [\\d.]+ tok/s${withError} at concurrency \\d+`, 'm'));
    assert.match(search.stdout, new RegExp(`^SLO mean-tpot=.*, [\\d.]+ output tok/s${withError}, [\\d.]+ tok/s per card$`, 'm'));
    assert.ok(existsSync(plot) && readFileSync(plot, 'utf8').startsWith('<svg'), 'the plot is an SVG');

    // Every point is a normal catalog run labelled with the sweep and its load.
    const catalog = openCatalog(db, { mustExist: true });
    try {
      const runs = catalog.listRuns({ labels: { mode: 'predict' } });
      assert.equal(runs.length, grid.points.length);
      const sweepIds = new Set(runs.map((run) => run.labels.sweep));
      assert.equal(sweepIds.size, 1);
      const loads = runs.map((run) => Number(run.labels.sweep_load)).sort((a, b) => a - b);
      assert.deepEqual(loads, grid.points.map((p) => p.load));
      const first = runs.find((run) => run.labels.sweep_load === String(STEP));
      assert.equal(first?.metrics.max_concurrency, STEP);
      assert.equal(first?.requestCount, STEP * 4);
      // The predicted device and its cards are facts of the recipe, not labels: labels are what the user gave.
      assert.deepEqual([first?.labels.hardware, first?.labels.deploy, first?.labels.cards], [undefined, undefined, undefined]);
      assert.deepEqual([deriveHardware(first!)?.value, deriveCards(first!)?.value, deriveDeployMode(first!)], ['h100', 1, 'PD mixed']);
      assert.equal(catalog.listRuns({ labels: { mode: 'predict' }, hardware: 'h100' }).length, runs.length);
      assert.equal(first?.recipe?.instances[0]?.config.modelPath, 'Qwen/Qwen2.5-7B-Instruct');
      assert.deepEqual(new Set(grid.points.map((p) => p.run_id)), new Set(runs.map((run) => run.id)));
      // Each point's record keeps the expected error (null before the model is cross-validated).
      if (expectedError === null) assert.equal(first?.metrics.prediction_error, null);
      else assert.equal(first?.metrics.mean_tpot_prediction_error, expectedError.meanTpot);
    } finally {
      catalog.close();
    }
  });
});

describe('sweep command errors', () => {
  for (const [args, pattern] of [
    [['--concurrency', '1,2', '--', '--num-prompts', '5', '--port', '1'], /Failed to fetch model|connect|refused/i],
    [['--concurrency', '4,2', ...PREDICT, ...WORKLOAD], /loads must increase/],
    [['--slo', 'speed=2s', ...PREDICT, ...WORKLOAD], /unknown metric/],
    [['--search-configs', '--model-path', 'no-such-model', '--hardware', 'b200', '--devices', '8', ...WORKLOAD], /cannot tell which model/],
  ] as const) {
    test(`fails with one line: ${args.slice(0, 4).join(' ')}`, async () => {
      const result = await runCli(['sweep', '--no-catalog', ...args]);
      assert.notEqual(result.code, 0);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] as string, /^servebench sweep: error: /);
      assert.match(lines[0] as string, pattern);
    });
  }
});
