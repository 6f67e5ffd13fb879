/**
 * The dashboard over HTTP on a seeded temp catalog: pages, chart images, the JSON API, escaping
 * of log text, and the server's refusals (unknown runs, other methods, foreign Host headers).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog, type Catalog } from '../src/catalog/index.js';
import { decodeJson } from '../src/catalog/store/json-codec.js';
import { UserError } from '../src/core/errors.js';
import { startDashboard, type RunningDashboard } from '../src/dashboard/server.js';
import { HOSTILE_MODEL, seedCatalog, syntheticRun, type SeededCatalog } from './dashboard-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'servebench-dashboard-'));
let seeded: SeededCatalog;
let catalog: Catalog;
let dashboard: RunningDashboard;

before(async () => {
  seeded = seedCatalog(join(dir, 'catalog.db'));
  catalog = openCatalog(join(dir, 'catalog.db'), { mustExist: true });
  dashboard = await startDashboard({ catalog, port: 0 });
});

after(async () => {
  await dashboard.close();
  catalog.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(path: string): Promise<{ status: number; type: string; text: string; headers: Headers }> {
  const response = await fetch(dashboard.url + path);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text(), headers: response.headers };
}

function rawRequest(method: string, path: string, host: string): Promise<number> {
  const { port } = new URL(dashboard.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('dashboard pages', () => {
  test('listens on loopback and serves the runs list with every run', async () => {
    assert.match(dashboard.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await get('/');
    assert.equal(page.status, 200);
    assert.match(page.type, /^text\/html/);
    assert.match(page.text, /11 of 11 runs/);
    for (const id of [seeded.fast, seeded.slow, ...seeded.reference]) assert.ok(page.text.includes(`href="/runs/${id}"`), id);
  });

  test('filters narrow the list: hardware, label, model and text', async () => {
    assert.match((await get('/runs?hardware=h100')).text, /2 of 11 runs/);
    assert.match((await get('/runs?label=cards%3D16')).text, /3 of 11 runs/);
    assert.match((await get('/runs?model=qwen3-8b')).text, /2 of 11 runs/);
    assert.match((await get('/runs?q=concurrency+1024')).text, /1 of 11 runs/);
    const bad = await get('/runs?label=cards');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /label filter &#39;cards&#39; is not key=value/);
  });

  test('log text is escaped everywhere and pages forbid scripts', async () => {
    for (const path of ['/runs', `/runs/${seeded.hostile}`, `/compare?run=${seeded.hostile}&run=${seeded.fast}`, '/table']) {
      const page = await get(path);
      assert.equal(page.status, 200, path);
      assert.ok(!page.text.includes('<script'), `${path} contains a script element`);
      assert.ok(!page.text.includes('<img'), `${path} contains an img element`);
      assert.ok(!page.text.includes('<b>bold-hw'), `${path} contains a b element`);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    }
    const detail = await get(`/runs/${seeded.hostile}`);
    assert.ok(detail.text.includes('&lt;script&gt;window.__pwned = 1&lt;/script&gt;'));
  });

  test('run detail shows metrics and the four plots as inline SVG', async () => {
    const page = await get(`/runs/${seeded.fast}`);
    assert.match(page.text, /<table id="metrics">/);
    for (const kind of ['throughput', 'concurrency', 'ttft', 'itl']) {
      assert.match(page.text, new RegExp(`<figure class="chart" data-chart="${kind}"[^>]*><svg`), kind);
    }
  });

  test('a run from a console log explains why it has no plots', async () => {
    const page = await get(`/runs/${seeded.reference[0]}`);
    assert.match(page.text, /<div class="notice" id="no-plots">No plots: the run has no per-request records \(ingested from a console log\)\.<\/div>/);
    assert.doesNotMatch(page.text, /<figure/);
  });

  test('comparison puts two runs side by side with relative change', async () => {
    const page = await get(`/compare?run=${seeded.fast}&run=${seeded.slow}`);
    assert.match(page.text, /Compare 2 runs/);
    assert.match(page.text, /<tr data-metric="output_throughput"><th title="output_throughput">Output token throughput \(tok\/s\)<\/th><td class="num">[\d.]+<\/td><td class="num">[\d.]+ <span class="change worse">\(-\d+\.\d%\)<\/span>/);
    assert.match(page.text, /changed beyond the spread/);
    assert.match(page.text, /id="measured-once">.*measured once, and one run cannot tell a difference from run-to-run noise/);
    const picker = (await get(`/compare?run=${seeded.fast}`)).text;
    assert.match(picker, /Pick at least two runs/);
    assert.equal((picker.match(/<tr data-run=/g) ?? []).length, 11);
    assert.match(picker, new RegExp(`value="${seeded.fast}" aria-label="select run ${seeded.fast}" checked>`));
    assert.match(picker, new RegExp(`value="${seeded.slow}" aria-label="select run ${seeded.slow}">`));
  });

  test('the best-practice table groups runs into latency classes', async () => {
    const page = await get('/table');
    assert.match(page.text, /data-class="low-latency"/);
    assert.match(page.text, /data-class="high-throughput"/);
    assert.match(page.text, new RegExp(`<tr data-run="${seeded.fast}">`));
    const bad = await get('/table?classes=a:%3C%3D50,b:%3C%3D20');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /latency classes: bounds must increase/);
  });

  test('chart images are served as SVG and PNG', async () => {
    const svg = await get(`/runs/${seeded.fast}/plots/itl.svg`);
    assert.equal(svg.type, 'image/svg+xml');
    assert.ok(svg.text.startsWith('<svg'));
    const png = await fetch(`${dashboard.url}/runs/${seeded.fast}/plots/throughput.png`);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.equal(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString(), 'PNG');
    assert.equal((await get(`/runs/${seeded.reference[0]}/plots/ttft.svg`)).status, 404);
    assert.equal((await get(`/runs/${seeded.fast}/plots/pie.svg`)).status, 404);
  });
});

describe('dashboard JSON API', () => {
  test('runs, one run, its requests and its timeline', async () => {
    const list = decodeJson<{ runs: { id: string; model: string }[] }>((await get('/api/runs?hardware=h100')).text);
    assert.deepEqual(list.runs.map((r) => r.id).sort(), [seeded.fast, seeded.slow].sort());
    const one = decodeJson<{ run: { model: string; metrics: Record<string, unknown> } }>((await get(`/api/runs/${seeded.hostile}`)).text);
    assert.equal(one.run.model, HOSTILE_MODEL);
    assert.equal(one.run.metrics.request_rate, Infinity);
    const requests = decodeJson<{ requests: unknown[] }>((await get(`/api/runs/${seeded.fast}/requests`)).text);
    assert.equal(requests.requests.length, 96);
    const timeline = decodeJson<{ outputTokens: number[]; inFlight: number[] }>((await get(`/api/runs/${seeded.fast}/timeline`)).text);
    assert.equal(timeline.outputTokens.length, timeline.inFlight.length);
    assert.ok(timeline.outputTokens.length > 1);
  });

  test('comparison and table', async () => {
    const compare = decodeJson<{ runs: string[]; metrics: { key: string }[] }>((await get(`/api/compare?run=${seeded.fast}&run=${seeded.slow}`)).text);
    assert.deepEqual(compare.runs, [seeded.fast, seeded.slow]);
    assert.ok(compare.metrics.some((m) => m.key === 'mean_tpot_ms'));
    const table = decodeJson<{ groups: { rows: unknown[] }[] }>((await get('/api/table')).text);
    assert.equal(table.groups.reduce((n, g) => n + g.rows.length, 0), 11);
  });

  test('errors are JSON with a status', async () => {
    const missing = await get('/api/runs/ffffffffffff');
    assert.equal(missing.status, 404);
    assert.match(JSON.parse(missing.text).error, /no run 'ffffffffffff'/);
    assert.equal((await get('/api/compare?run=' + seeded.fast)).status, 400);
    assert.equal((await get('/api/nothing')).status, 404);
    assert.equal((await get('/runs/not-an-id')).status, 404);
    assert.equal((await get('/runs/%E0%A4%A')).status, 400);
  });
});

describe('dashboard server', () => {
  test('only GET and HEAD are answered', async () => {
    assert.equal(await rawRequest('POST', '/runs', `127.0.0.1`), 405);
    assert.equal(await rawRequest('HEAD', '/runs', `127.0.0.1`), 200);
  });

  test('a port in use is a user error naming the fix', async () => {
    const port = Number(new URL(dashboard.url).port);
    await assert.rejects(startDashboard({ catalog, port }), (error: unknown) => error instanceof UserError && /port \d+ on 127\.0\.0\.1 is in use; pass another --port/.test(error.message));
  });

  test('on loopback, requests addressed to another host name are refused', async () => {
    assert.equal(await rawRequest('GET', '/runs', 'attacker.example:80'), 421);
    assert.equal(await rawRequest('GET', '/runs', 'localhost'), 200);
  });
});

describe('dashboard: sweeps', () => {
  test('the sweep view overlays a measured and a predicted sweep: per-card throughput against TPOT and TTFT, by load', async () => {
    const point = (sweep: string, mode: string, load: number, itlMs: number, seed: number) =>
      syntheticRun(`${sweep}-${load}`, 'Qwen/Qwen3-8B', { hardware: 'h100', cards: '1', sweep, mode, sweep_load: String(load) }, itlMs, seed);
    catalog.recordRuns([point('sweep-measured', 'server', 1, 8, 11), point('sweep-measured', 'server', 4, 12, 12), point('sweep-plan', 'predict', 1, 7, 13), point('sweep-plan', 'predict', 4, 11, 14)]);
    const list = (await get('/sweeps')).text;
    assert.match(list, /<tr data-sweep="sweep-plan" data-mode="predicted">/);
    assert.match(list, /<tr data-sweep="sweep-measured" data-mode="measured">/);
    const view = await get('/sweeps?sweep=sweep-measured&sweep=sweep-plan');
    assert.equal(view.status, 200);
    assert.match(view.text, /<figure class="chart single" data-chart="sweep"/);
    assert.match(view.text, /measured · sweep-measured/);
    assert.match(view.text, /predicted · sweep-plan/);
    assert.equal((view.text.match(/<tr data-sweep="sweep-(measured|plan)"><td>/g) ?? []).length, 4);
    assert.equal((await get('/sweeps?sweep=no-such')).status, 404);
  });
});

describe('dashboard: what each run is', () => {
  // Last, as it adds a run: the counts above are of the seeded catalog.
  test('runs show and filter their mode, suspect runs are flagged, the table keeps to measured runs unless asked', async () => {
    const predicted = catalog.recordRun(syntheticRun('h100-plan', 'Qwen/Qwen3-8B', { hardware: 'h100', cards: '1', mode: 'predict' }, 10, 4));
    const failing = syntheticRun('h100-failing', 'Qwen/Qwen3-8B', { hardware: 'h100', cards: '1' }, 14, 5);
    const suspect = catalog.recordRun({ ...failing, metrics: { ...failing.metrics, failed: 3, failed_http_5xx: 3 }, warnings: ['3 of 99 requests failed (http_5xx 3)'] });
    const list = (await get('/runs?mode=predicted')).text;
    assert.match(list, /3 of 17 runs/);
    assert.match(list, new RegExp(`<tr data-run="${predicted}" data-mode="predicted">`));
    assert.match((await get('/runs')).text, new RegExp(`<tr data-run="${seeded.hostile}" data-mode="measured" class="suspect">`));
    assert.equal((await get('/runs?mode=guessed')).status, 400);
    const table = (await get('/table?rows=all')).text;
    assert.doesNotMatch(table, new RegExp(`data-run="${predicted}"`));
    assert.doesNotMatch(table, /<th>Mode<\/th>/);
    assert.match(table, new RegExp(`<tr data-run="${suspect}" class="suspect" title="3 of 99 requests failed \\(http_5xx 3\\)`));
    const all = (await get('/table?mode=all&rows=all')).text;
    assert.match(all, new RegExp(`data-run="${predicted}"`));
    assert.match(all, /<th>Mode<\/th>/);
    assert.match(all, /<td class="mode">predicted<\/td>/);
  });
});
