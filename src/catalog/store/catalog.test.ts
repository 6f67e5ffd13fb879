import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { UserError } from '../../core/errors.js';
import { openCatalog, runIdFor } from './catalog.js';
import { resolveCatalogPath } from './paths.js';
import { SCHEMA_VERSION } from './schema.js';
import type { RunInput } from '../types.js';

const dir = mkdtempSync(join(tmpdir(), 'servebench-catalog-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function sampleRun(hash: string, extra: Partial<RunInput> = {}): RunInput {
  return {
    source: { kind: 'bench', file: null, contentHash: hash },
    metrics: { backend: 'sglang', request_rate: Infinity, max_concurrency: null, mean_ttft_ms: 12.5 },
    args: { model: 'Qwen/Qwen3-8B', header: ['Authorization=Bearer sk-secret'], random_input_len: 64 },
    labels: { hardware: 'h100', cards: '1' },
    warnings: ['one warning'],
    requests: [
      { startTime: 0, ttft: 0.01, latency: 0.1, itl: [0.02, 0.03], promptLen: 64, outputLen: 3, success: true, error: '', cause: null },
      { startTime: 0.5, ttft: null, latency: null, itl: [], promptLen: 64, outputLen: 0, success: false, error: 'HTTP 500', cause: 'http_status' },
    ],
    ...extra,
  };
}

describe('catalog store', () => {
  test('the runs of a repeated measurement come back as one group, in run order; other runs have none', () => {
    const catalog = openCatalog(join(dir, 'repeat.db'));
    for (const run of [3, 1, 2]) catalog.recordRun(sampleRun(`r${run}`, { repeat: { group: 'g1', run, runs: 3 } }));
    const single = catalog.recordRun(sampleRun('single'));
    assert.deepEqual(catalog.repeatGroup('g1').map((run) => run.repeat), [1, 2, 3].map((run) => ({ group: 'g1', run, runs: 3 })));
    assert.equal(catalog.getRun(single).repeat, null);
    assert.deepEqual(catalog.repeatGroup('none'), []);
    catalog.close();
  });
  test('records a run and reads it back unchanged, secrets redacted', () => {
    const catalog = openCatalog(join(dir, 'a.db'));
    const id = catalog.recordRun(sampleRun('h1'));
    assert.equal(id, runIdFor('h1'));
    const run = catalog.getRun(id.slice(0, 6));
    assert.equal(run.model, 'Qwen/Qwen3-8B');
    assert.equal(run.metrics.request_rate, Infinity);
    assert.equal(run.metrics.max_concurrency, null);
    assert.deepEqual(run.labels, { cards: '1', hardware: 'h100' });
    assert.deepEqual(run.warnings, ['one warning']);
    assert.deepEqual(run.args?.header, ['Authorization=<redacted>']);
    assert.equal(run.requestCount, 2);
    const requests = catalog.getRequests(id);
    assert.deepEqual(requests[0]!.itl, [0.02, 0.03]);
    assert.equal(requests[1]!.cause, 'http_status');
    assert.equal(requests[1]!.success, false);
    catalog.close();
  });

  test("a bench run's server side: its /metrics readings and each response's own figures read back; absent, null", () => {
    const catalog = openCatalog(join(dir, 'server.db'));
    const serverMetrics = { dialect: 'sglang', prefix_cache_hit_rate: 0.5, series: { t: [0, 1], running_requests: [0, 4] } };
    const base = sampleRun('srv');
    const requests = [{ ...base.requests![0]!, server: { cachedTokens: 48, queueTime: 0.002, completionTokens: 3 } }, base.requests![1]!];
    const id = catalog.recordRun({ ...base, serverMetrics, requests });
    assert.deepEqual(catalog.getRun(id).serverMetrics, serverMetrics);
    assert.deepEqual(catalog.getRequests(id).map((r) => r.server), [{ cachedTokens: 48, queueTime: 0.002, completionTokens: 3 }, null]);
    const plain = catalog.recordRun(sampleRun('srv-none'));
    assert.equal(catalog.getRun(plain).serverMetrics, null);
    catalog.close();
  });

  test('the same content hash is stored once', () => {
    const catalog = openCatalog(join(dir, 'b.db'));
    const first = catalog.recordRuns([sampleRun('x'), sampleRun('y')]);
    const again = catalog.recordRuns([sampleRun('x')]);
    assert.deepEqual(first.map((o) => o.created), [true, true]);
    assert.deepEqual(again, [{ id: first[0]!.id, created: false }]);
    assert.equal(catalog.countRuns(), 2);
    catalog.recordRuns([sampleRun('x', { labels: { cards: '8', hardware: 'h100' } })]);
    assert.equal(catalog.getRun(first[0]!.id).labels.cards, '1', 'labels change only when asked');
    catalog.recordRuns([sampleRun('x', { labels: { cards: '8' } })], { mergeLabels: true });
    assert.deepEqual(catalog.getRun(first[0]!.id).labels, { cards: '8', hardware: 'h100' });
    catalog.close();
  });

  test('filters by model, hardware, label, since and limit', () => {
    const catalog = openCatalog(join(dir, 'c.db'));
    catalog.recordRun(sampleRun('m1'));
    catalog.recordRun(sampleRun('m2', { model: 'DeepSeek-V3', labels: { hardware: 'ascend-910c', cards: '16' } }));
    assert.deepEqual(catalog.listRuns({ model: 'deepseek' }).map((r) => r.model), ['DeepSeek-V3']);
    assert.deepEqual(catalog.listRuns({ hardware: '910C' }).map((r) => r.model), ['DeepSeek-V3']);
    assert.deepEqual(catalog.listRuns({ labels: { cards: '1' } }).map((r) => r.model), ['Qwen/Qwen3-8B']);
    assert.equal(catalog.listRuns({ limit: 1 })[0]!.model, 'DeepSeek-V3');
    assert.equal(catalog.listRuns({ since: '2999-01-01' }).length, 0);
    catalog.close();
  });

  test('--hardware: the label where the user gave one, else the device a server of the recipe reported', () => {
    const catalog = openCatalog(join(dir, 'hw.db'));
    const reported = (key: string) => ({
      instances: [{ role: 'mixed' as const, launcher: 'servebench-sim 0.1.0', config: { tpSize: 1 }, flags: {}, hardware: { key, name: key.toUpperCase(), unit: 'GPU', devicesPerCard: 1 } }],
      env: {},
      origin: "the server's /get_server_info",
    });
    const simulated = catalog.recordRun(sampleRun('r1', { labels: {}, recipe: reported('h100') }));
    const relabelled = catalog.recordRun(sampleRun('r2', { labels: { hardware: 'my_h200%' }, recipe: reported('h100') }));
    const unknown = catalog.recordRun(sampleRun('r3', { labels: {} }));
    assert.deepEqual(catalog.listRuns({ hardware: 'H100' }).map((r) => r.id), [simulated]);
    assert.deepEqual(catalog.listRuns({ hardware: 'h200%' }).map((r) => r.id), [relabelled], "the label wins, and % is no wildcard");
    assert.deepEqual(catalog.listRuns({ hardware: 'h' }).map((r) => r.id).sort(), [simulated, relabelled].sort());
    assert.ok(!catalog.listRuns({ hardware: 'h' }).some((r) => r.id === unknown));
    catalog.close();
  });

  test('a failing batch stores nothing', () => {
    const catalog = openCatalog(join(dir, 'd.db'));
    catalog.recordRun(sampleRun('keep'));
    const bad = sampleRun('bad', { labels: { k: null as unknown as string } });
    assert.throws(() => catalog.recordRuns([sampleRun('fresh'), bad]), UserError);
    assert.equal(catalog.countRuns(), 1);
    catalog.close();
  });

  test('schema version is recorded; a newer catalog is refused', () => {
    const path = join(dir, 'e.db');
    openCatalog(path).close();
    const raw = new Database(path);
    assert.equal(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    assert.throws(() => openCatalog(path), /newer than this servebench/);
  });

  test('every run has a mode; runs stored before modes existed get theirs from what they carry; modes filter', () => {
    const path = join(dir, 'modes.db');
    const catalog = openCatalog(path);
    const predicted = catalog.recordRun(sampleRun('p', { labels: { mode: 'predict', sweep: 's1' } }));
    const simulated = catalog.recordRun(sampleRun('s', { args: { model: 'm', sim: '--model-path m' } }));
    const measured = catalog.recordRun(sampleRun('m'));
    const explicit = catalog.recordRun(sampleRun('x', { mode: 'simulated' }));
    const modeOf = (c: ReturnType<typeof openCatalog>, id: string): string => c.getRun(id).mode;
    assert.deepEqual([predicted, simulated, measured, explicit].map((id) => modeOf(catalog, id)), ['predicted', 'simulated', 'measured', 'simulated']);
    assert.deepEqual(catalog.listRuns({ modes: ['measured'] }).map((r) => r.id), [measured]);
    assert.deepEqual(catalog.listRuns({ modes: [] }), []);
    catalog.close();
    // The catalog as the schema before modes left it: no mode (nor queue time, server side, repeat group) column, version 2.
    const raw = new Database(path);
    raw.exec('DROP INDEX runs_by_mode; ALTER TABLE runs DROP COLUMN mode; ALTER TABLE requests DROP COLUMN queue_time');
    raw.exec('ALTER TABLE runs DROP COLUMN server_metrics_json; ALTER TABLE requests DROP COLUMN server_json');
    raw.exec('DROP INDEX runs_by_repeat_group; ALTER TABLE runs DROP COLUMN repeat_group; ALTER TABLE runs DROP COLUMN repeat_run; ALTER TABLE runs DROP COLUMN repeat_runs; ALTER TABLE runs DROP COLUMN shards_json');
    raw.pragma('user_version = 2');
    raw.close();
    const upgraded = openCatalog(path);
    assert.deepEqual([predicted, simulated, measured, explicit].map((id) => modeOf(upgraded, id)), ['predicted', 'simulated', 'measured', 'measured']);
    upgraded.close();
  });

  test('a corrupt file and a locked catalog give one-line errors', () => {
    const corrupt = join(dir, 'corrupt.db');
    writeFileSync(corrupt, Buffer.alloc(4096, 7));
    assert.throws(() => openCatalog(corrupt), /not a servebench catalog or is corrupt/);
    const path = join(dir, 'locked.db');
    openCatalog(path).close();
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    const catalog = openCatalog(path, { busyTimeoutMs: 50 });
    assert.throws(() => catalog.recordRun(sampleRun('z')), /is locked by another process/);
    holder.exec('ROLLBACK');
    holder.close();
    assert.equal(catalog.countRuns(), 0);
    catalog.close();
  });

  test('unknown ids are clear errors', () => {
    const catalog = openCatalog(join(dir, 'f.db'));
    assert.throws(() => catalog.getRun('abcd'), /no run 'abcd'/);
    assert.throws(() => catalog.getRun('zz'), /not a run id/);
    catalog.close();
    assert.throws(() => openCatalog(join(dir, 'missing.db'), { mustExist: true }), /no catalog at/);
  });

  test('default path follows --db, SERVEBENCH_DB, then XDG_DATA_HOME', () => {
    assert.equal(resolveCatalogPath('/x.db', { SERVEBENCH_DB: '/y.db' }), '/x.db');
    assert.equal(resolveCatalogPath(null, { SERVEBENCH_DB: '/y.db' }), '/y.db');
    assert.equal(resolveCatalogPath(null, { XDG_DATA_HOME: '/data' }), '/data/servebench/catalog.db');
    assert.equal(resolveCatalogPath(null, {}, '/home/u'), '/home/u/.local/share/servebench/catalog.db');
  });
});
