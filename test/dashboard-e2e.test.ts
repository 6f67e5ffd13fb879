/**
 * The dashboard as a person sees it, driven in headless Chromium (Debian's `chromium` through
 * playwright-core): runs list, filters, run detail with plots, comparison, best-practice table,
 * and a model name full of markup that must show as text and never run.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { openCatalog, type Catalog } from '../src/catalog/index.js';
import { startDashboard, type RunningDashboard } from '../src/dashboard/server.js';
import { HOSTILE_MODEL, seedCatalog, syntheticRun, type SeededCatalog } from './dashboard-fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install -y chromium`;
const dir = mkdtempSync(join(tmpdir(), 'servebench-e2e-'));
let seeded: SeededCatalog;
let catalog: Catalog;
let dashboard: RunningDashboard;
let context: BrowserContext;
let page: Page;
const dialogs: string[] = [];

before(async () => {
  if (skip) return;
  seeded = seedCatalog(join(dir, 'catalog.db'));
  catalog = openCatalog(join(dir, 'catalog.db'), { mustExist: true });
  dashboard = await startDashboard({ catalog, port: 0 });
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: BROWSER_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});

after(async () => {
  await context?.close();
  await dashboard?.close();
  catalog?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = (): Promise<number> => page.locator('#runs tbody tr').count();

describe('dashboard in a browser', { skip }, () => {
  test('the runs list shows every run and a filter narrows it', async () => {
    await page.goto(`${dashboard.url}/`);
    assert.equal(await page.locator('h1').textContent(), 'Runs');
    assert.equal(await rows(), 11);
    assert.equal(await page.locator('#run-count').textContent(), '11 of 11 runs');
    await page.locator('select[name=hardware]').selectOption('H800');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/hardware=H800/);
    assert.equal(await rows(), 3);
    await page.locator('input[name=q]').fill('concurrency 1024');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/q=concurrency/);
    assert.equal(await rows(), 1);
    await page.getByRole('link', { name: 'Clear' }).click();
    await page.waitForURL(/\/runs$/);
    assert.equal(await rows(), 11);
  });

  test('clicking a run shows its metrics and plots', async () => {
    await page.goto(`${dashboard.url}/runs`);
    await page.getByRole('link', { name: seeded.fast }).click();
    await page.waitForURL(new RegExp(`/runs/${seeded.fast}$`));
    assert.equal(await page.locator('h1').textContent(), 'Qwen3-8B');
    // Metrics read by their result-block names, the raw key kept on the row.
    const throughputRow = page.locator('#metrics tr[data-key="output_throughput"]');
    assert.equal(await throughputRow.locator('th').textContent(), 'Output token throughput (tok/s)');
    assert.match((await throughputRow.locator('td').textContent()) ?? '', /^\d+\.\d\d$/);
    const chart = page.locator('figure[data-chart=throughput] svg');
    assert.equal(await chart.isVisible(), true);
    const box = await chart.boundingBox();
    assert.ok(box && box.width > 300 && box.height > 150, `plot is ${JSON.stringify(box)}`);
    assert.match((await page.locator('figure[data-chart=throughput]').textContent()) ?? '', /Output tokens per second/);
    assert.equal(await page.locator('figure[data-chart=itl] svg').isVisible(), true);
    // The per-request timeline: a bar per request, split into its phases.
    assert.equal(await page.locator('figure[data-chart=timeline] svg').isVisible(), true);
    const timeline = (await page.locator('figure[data-chart=timeline]').textContent()) ?? '';
    for (const text of ['Requests over the run', '96 requests', 'time to first token', 'decode']) assert.ok(timeline.includes(text), text);
  });

  test('ticking two runs and pressing compare shows them side by side', async () => {
    await page.goto(`${dashboard.url}/runs?hardware=h100`);
    await page.getByLabel(`select run ${seeded.fast}`).check();
    await page.getByLabel(`select run ${seeded.slow}`).check();
    await page.getByRole('button', { name: 'Compare selected' }).click();
    await page.waitForURL(/\/compare\?/);
    assert.equal(await page.locator('h1').textContent(), 'Compare 2 runs');
    const headers = await page.locator('#comparison thead th').allTextContents();
    assert.equal(headers.length, 3);
    assert.ok(headers.some((h) => h.includes(seeded.fast)) && headers.some((h) => h.includes(seeded.slow)));
    const tpot = page.locator('#comparison tr[data-metric=mean_tpot_ms] td');
    assert.equal(await tpot.count(), 2);
    assert.match((await tpot.nth(1).textContent()) ?? '', /\([+-]\d+\.\d%\)/);
    assert.equal(await page.locator('figure[data-chart=tput-vs-tpot] svg').isVisible(), true);
    // What was run with: the two runs share their arguments, and say so.
    assert.equal(await page.locator('#args-diff').textContent(), 'The same in every run.');
  });

  test('ticking a measured and a predicted sweep overlays their curves', async () => {
    const point = (sweep: string, mode: string, load: number, itlMs: number, seed: number) =>
      syntheticRun(`${sweep}-${load}`, 'Qwen/Qwen3-8B', { hardware: 'h100', cards: '1', sweep, mode, sweep_load: String(load) }, itlMs, seed);
    catalog.recordRuns([point('e2e-measured', 'server', 1, 8, 21), point('e2e-measured', 'server', 8, 14, 22), point('e2e-plan', 'predict', 1, 7, 23), point('e2e-plan', 'predict', 8, 13, 24)]);
    await page.goto(`${dashboard.url}/`);
    await page.getByRole('link', { name: 'Sweeps' }).click();
    await page.waitForURL(/\/sweeps$/);
    await page.getByLabel('select sweep e2e-measured').check();
    await page.getByLabel('select sweep e2e-plan').check();
    await page.getByRole('button', { name: 'Overlay selected' }).click();
    await page.waitForURL(/\/sweeps\?sweep=/);
    assert.equal(await page.locator('h1').textContent(), 'Sweeps overlaid');
    const chart = page.locator('figure[data-chart=sweep] svg');
    assert.equal(await chart.isVisible(), true);
    const text = (await page.locator('figure[data-chart=sweep]').textContent()) ?? '';
    assert.match(text, /measured · e2e-measured/);
    assert.match(text, /predicted · e2e-plan/);
    assert.equal(await page.locator('#sweep-points tbody tr').count(), 4);
  });

  test('the table page shows the best-practice rows', async () => {
    await page.goto(`${dashboard.url}/`);
    await page.getByRole('link', { name: 'Best-practice table' }).click();
    await page.waitForURL(/\/table$/);
    // One row per configuration, its best run; the predicted sweep's points are not best practice.
    const best = await page.locator('table.best-practice tbody tr').count();
    assert.match((await page.locator('main').textContent()) ?? '', /best of \d+ runs/);
    // Every run: the 11 seeded runs and the measured sweep's 2 points.
    await page.getByLabel('Rows').selectOption('all');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/rows=all/);
    assert.equal(await page.locator('table.best-practice tbody tr').count(), 13);
    assert.ok(best < 13, `best per configuration: ${best} rows`);
    const b200 = page.locator('table.best-practice tbody tr', { hasText: 'TP8 EP8 DP8' });
    const cells = await b200.locator('td').allTextContents();
    assert.deepEqual(cells.slice(0, 4), ['DeepSeek-V3.2-Exp', 'B200', '8', 'PD mixed']);
    assert.equal(await page.locator('section[data-class=high-throughput] tbody tr').count(), 1);
  });

  test('markup in a model name is shown as text and never runs', async () => {
    await page.goto(`${dashboard.url}/runs/${seeded.hostile}`);
    assert.equal(await page.locator('.facts dd').first().textContent(), HOSTILE_MODEL);
    assert.match((await page.locator('#warnings li').textContent()) ?? '', /^<script>window\.__pwned = 3<\/script>/);
    await page.goto(`${dashboard.url}/runs`);
    assert.match((await page.locator(`tr[data-run="${seeded.hostile}"]`).textContent()) ?? '', /onerror="window\.__pwned = 2"/);
    for (const path of [`/runs/${seeded.hostile}`, '/runs', '/table', `/compare?run=${seeded.hostile}&run=${seeded.fast}`]) {
      await page.goto(dashboard.url + path);
      assert.equal(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned), undefined, path);
      assert.equal(await page.locator('script, img, main b').count(), 0, path);
    }
    assert.deepEqual(dialogs, []);
  });
});
