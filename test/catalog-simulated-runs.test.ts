/**
 * A simulated run records what was simulated, as a measured run records its server: `bench --sim`
 * and bench against a `servebench sim` started apart keep the deployment the sim reports through
 * `/get_server_info` (device, cards in the device's unit, parallel layout, quantization), and
 * `runs --hardware`, `show`, `table --mode simulated` and the dashboard's run page find it there,
 * with no label saying it.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openCatalog } from '../src/catalog/index.js';
import { startDashboard } from '../src/dashboard/server.js';
import { runCli } from './helpers/cli.js';
import { spawnSim } from './helpers/sim-process.js';

const dir = mkdtempSync(join(tmpdir(), 'servebench-simulated-runs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Four Ascend 910C dies (two A3 cards), tensor-parallel over all four. */
const DEPLOYMENT = ['--model-path', 'Qwen/Qwen3-8B', '--hardware', 'ascend-910c', '--tp', '4'];
const WORKLOAD = ['--backend', 'sglang', '--dataset-name', 'random', '--random-input-len', '32', '--random-output-len', '4', '--num-prompts', '4', '--disable-tqdm'];
const DEVICE = 'Huawei Ascend 910C, one of two dies \\(Atlas 800I A3\\)';

/** Runs bench into `db`; the id of the run it recorded. */
async function benchRun(db: string, target: string[]): Promise<string> {
  const result = await runCli(['bench', ...target, ...WORKLOAD, '--output-file', join(dir, 'results.jsonl'), '--db', db]);
  assert.equal(result.code, 0, result.stderr);
  const id = /Run ([0-9a-f]{12}) recorded in /.exec(result.stdout + result.stderr)?.[1];
  assert.ok(id, result.stdout);
  return id;
}

async function catalogCli(db: string, ...args: string[]): Promise<string> {
  const result = await runCli([...args, '--db', db]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

/** The run's line in `runs`, split into its columns. */
function listed(stdout: string, id: string): string[] | undefined {
  return stdout.split('\n').find((line) => line.startsWith(id))?.split(/\s{2,}/);
}

/** `show`'s facts every simulated run of DEPLOYMENT states, from what the sim reported. */
function assertShownFacts(shown: string, quantization: RegExp): void {
  assert.match(shown, /^ {2}mode: {8}simulated$/m);
  assert.match(shown, new RegExp(`^ {2}hardware: {4}ascend-910c \\(${DEVICE}, reported by the server\\)$`, 'm'));
  assert.match(shown, /^ {2}cards: {7}2 \(recipe: mixed 4 dies = 2 ascend-910c cards \(2 dies per card\)\)$/m);
  assert.match(shown, /^ {2}deploy mode: PD mixed$/m);
  assert.match(shown, quantization);
  assert.match(shown, /^ {2}origin: the server's \/get_server_info$/m);
  assert.match(shown, /^ {2}mixed \(servebench-sim [\d.]+\): .*\btpSize=4 .*\bdevice=npu .*\bhardware=ascend-910c weights=\w+$/m);
  // Labels say what the user gave: none here.
  assert.doesNotMatch(shown, /^labels:/m);
}

describe('a simulated run records what was simulated', () => {
  test('bench --sim: runs --hardware, show, table --mode simulated and the run page find the device, cards, layout and quantization', async () => {
    const db = join(dir, 'embedded.db');
    const id = await benchRun(db, ['--sim', [...DEPLOYMENT, '--quantization', 'w8a8_int8'].join(' ')]);

    const columns = listed(await catalogCli(db, 'runs', '--hardware', '910C'), id);
    assert.deepEqual(columns?.slice(2, 6), ['simulated', 'Qwen3-8B', 'ascend-910c', '2'], columns?.join(' | '));
    assert.equal(listed(await catalogCli(db, 'runs', '--hardware', 'h100'), id), undefined);

    const shown = await catalogCli(db, 'show', id);
    assertShownFacts(shown, /^ {2}quantization: w8a8_int8 \(launch --quantization\)$/m);
    assert.match(shown, /^ {4}flags: --model-path Qwen\/Qwen3-8B --hardware ascend-910c --tp 4 --quantization w8a8_int8$/m);

    const table = (await catalogCli(db, 'table', '--mode', 'simulated', '--format', 'csv')).trim().split('\n');
    const header = table[0]!.split(',');
    const row = Object.fromEntries(table[1]!.split(',').map((value, i) => [header[i], value]));
    assert.deepEqual(
      [row.model, row.hardware, row.cards, row.deploy_mode, row.quantization, row.mode, row.run_id],
      ['Qwen3-8B', 'ascend-910c', '2', 'PD mixed', 'w8a8_int8', 'simulated', id],
    );

    const catalog = openCatalog(db, { mustExist: true });
    const dashboard = await startDashboard({ catalog, port: 0 });
    try {
      const page = await (await fetch(`${dashboard.url}/runs/${id}`)).text();
      assert.match(page, new RegExp(`<dt>Hardware</dt><dd>ascend-910c \\(${DEVICE}, reported by the server\\)</dd>`));
      assert.match(page, /<dt>Cards<\/dt><dd>2 \(recipe: mixed 4 dies = 2 ascend-910c cards \(2 dies per card\)\)<\/dd>/);
      assert.match(page, /<dt>Deploy mode<\/dt><dd>PD mixed<\/dd>/);
      assert.match(page, /<dt>Quantization<\/dt><dd>w8a8_int8 \(launch --quantization\)<\/dd>/);
      const filtered = await (await fetch(`${dashboard.url}/runs?hardware=ascend-910c`)).text();
      assert.match(filtered, new RegExp(`data-run="${id}"`));
    } finally {
      await dashboard.close();
      catalog.close();
    }
  });

  test("a sim started apart reports the same facts through /get_server_info; the user's hardware label still wins", async () => {
    const sim = await spawnSim([...DEPLOYMENT, '--port', '0', '--host', '127.0.0.1']);
    const db = join(dir, 'apart.db');
    try {
      const id = await benchRun(db, ['--base-url', sim.url]);
      const relabelled = await benchRun(db, ['--base-url', sim.url, '--label', 'hardware=lab-a3']);

      const runs = await catalogCli(db, 'runs', '--hardware', 'ascend-910c');
      assert.deepEqual(listed(runs, id)?.slice(2, 6), ['simulated', 'Qwen3-8B', 'ascend-910c', '2']);
      assert.equal(listed(runs, relabelled), undefined, 'the label names the hardware, not the report');
      assert.deepEqual(listed(await catalogCli(db, 'runs', '--hardware', 'lab-a3'), relabelled)?.slice(2, 6), ['simulated', 'Qwen3-8B', 'lab-a3', '2']);

      // A bf16 checkpoint: SGLang's quantization is null, the sim names the weights' format it simulates.
      assertShownFacts(await catalogCli(db, 'show', id), /^ {2}quantization: bf16 \(weights reported by the server\)$/m);
    } finally {
      sim.child.kill('SIGTERM');
      await once(sim.child, 'exit');
    }
  });
});
