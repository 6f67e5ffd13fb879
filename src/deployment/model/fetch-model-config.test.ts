import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { TINY_QWEN2_CONFIG as tinyQwen2 } from '../../../test/helpers/hf-cache.js';
import { startMockHub, type MockHub } from '../../../test/helpers/mock-hub.js';
import { fetchModelConfigs } from './fetch-model-config.js';
import type { HubEnv } from './hub-settings.js';
import { type ModelRequest, resolveModel } from './model-source.js';

const root = mkdtempSync(join(tmpdir(), 'servebench-fetch-config-'));
after(() => rmSync(root, { recursive: true, force: true }));

const MAIN = '1'.repeat(40);
const TAGGED = '2'.repeat(40);
const TOKEN = 'hf_test_token_never_printed';

let hub: MockHub;
before(async () => {
  hub = await startMockHub({
    'acme/Tiny-Qwen2': {
      refs: { main: MAIN, v2: TAGGED },
      commits: { [MAIN]: { 'config.json': tinyQwen2 }, [TAGGED]: { 'config.json': { ...tinyQwen2, num_hidden_layers: 12 } } },
    },
    'acme/Gated-Qwen2': { refs: { main: MAIN }, commits: { [MAIN]: { 'config.json': tinyQwen2 } }, token: TOKEN },
    'meta-llama/Llama-3.1-8B-Instruct': { refs: { main: MAIN }, commits: { [MAIN]: { 'config.json': tinyQwen2 } }, token: TOKEN },
    'acme/Tiny-VL': { refs: { main: MAIN }, commits: { [MAIN]: { 'config.json': { ...tinyQwen2, vision_config: { depth: 2 } }, 'preprocessor_config.json': { max_pixels: 1000 } } } },
    'acme/Tiny-VL-Bare': { refs: { main: MAIN }, commits: { [MAIN]: { 'config.json': { ...tinyQwen2, vision_config: { depth: 2 } } } } },
    'acme/Huge': { refs: { main: MAIN }, commits: { [MAIN]: { 'config.json': `{"pad": "${'x'.repeat(4 * 1024 * 1024)}"}` } } },
  });
});
after(() => hub.close());

let cases = 0;
/** A fresh cache and home per test (no token file, nothing cached), against the mock hub. */
function freshEnv(extra: Record<string, string> = {}): { env: HubEnv; cacheDir: string } {
  const dir = join(root, `case-${++cases}`);
  const cacheDir = join(dir, 'hub');
  return { env: { HF_HOME: join(dir, 'home'), HF_HUB_CACHE: cacheDir, HF_ENDPOINT: hub.endpoint, ...extra }, cacheDir };
}

const request = (modelPath: string, revision: string | null = null, simModel: string | null = null): ModelRequest => ({ modelPath, revision, simModel });

/** Runs the fetch step; resolves to its notes. */
async function fetchNotes(requests: ModelRequest[], env: HubEnv): Promise<string[]> {
  const notes: string[] = [];
  await fetchModelConfigs(requests, { env, notice: (line) => notes.push(line) });
  return notes;
}

/** The one-line UserError the fetch step ends in. */
async function fetchError(requests: ModelRequest[], env: HubEnv): Promise<string> {
  try {
    await fetchNotes(requests, env);
  } catch (error) {
    assert.ok(error instanceof UserError && !error.message.includes('\n'), String(error));
    return error.message;
  }
  return assert.fail('the fetch step did not fail');
}

/** Requests the mock received from now on. */
function requestsFrom(): () => string[] {
  const start = hub.requests.length;
  return () => hub.requests.slice(start).map((r) => r.url);
}

describe('fetchModelConfigs: a hub id into the HF cache', () => {
  test('stores config.json as huggingface_hub does (blob, snapshot link, refs/main); resolution then reads it, and a second fetch asks nothing', async () => {
    const { env, cacheDir } = freshEnv();
    const asked = requestsFrom();
    const notes = await fetchNotes([request('acme/Tiny-Qwen2')], env);
    assert.deepEqual(asked(), ['/acme/Tiny-Qwen2/resolve/main/config.json']);
    const folder = join(cacheDir, 'models--acme--Tiny-Qwen2');
    assert.equal(readFileSync(join(folder, 'refs', 'main'), 'utf8'), MAIN);
    const pointer = join(folder, 'snapshots', MAIN, 'config.json');
    assert.ok(lstatSync(pointer).isSymbolicLink());
    assert.match(readlinkSync(pointer), /^\.\.\/\.\.\/blobs\/[0-9a-f]{40}$/);
    assert.deepEqual(JSON.parse(readFileSync(pointer, 'utf8')), tinyQwen2);
    assert.deepEqual(notes, [`config.json of acme/Tiny-Qwen2 (main, commit ${MAIN.slice(0, 12)}) fetched from ${hub.endpoint} into ${folder}`]);
    assert.deepEqual([resolveModel(request('acme/Tiny-Qwen2'), env).model.layers, resolveModel(request('acme/Tiny-Qwen2'), env).model.source], [24, pointer]);
    assert.deepEqual(await fetchNotes([request('acme/Tiny-Qwen2')], env), []);
    assert.equal(asked().length, 1);
  });

  test('--revision: the tag is asked for, its commit named by refs/<tag>; each launch of a deployment fetched once', async () => {
    const { env, cacheDir } = freshEnv();
    const asked = requestsFrom();
    await fetchNotes([request('acme/Tiny-Qwen2', 'v2'), request('acme/Tiny-Qwen2', 'v2')], env);
    assert.deepEqual(asked(), ['/acme/Tiny-Qwen2/resolve/v2/config.json']);
    assert.equal(readFileSync(join(cacheDir, 'models--acme--Tiny-Qwen2', 'refs', 'v2'), 'utf8'), TAGGED);
    assert.equal(resolveModel(request('acme/Tiny-Qwen2', 'v2'), env).model.layers, 12);
  });

  test('a gated repo without HF_TOKEN: one line saying 401 and the fix; nothing stored', async () => {
    const { env, cacheDir } = freshEnv();
    const line = await fetchError([request('acme/Gated-Qwen2')], env);
    assert.ok(
      line.startsWith(`no config.json for acme/Gated-Qwen2: not in the HF cache at ${cacheDir}, the hub at ${hub.endpoint} answered 401 (gated: set HF_TOKEN), and no bundled model matches; pass --sim-model with one of `),
      line,
    );
    assert.equal(existsSync(join(cacheDir, 'models--acme--Gated-Qwen2', 'snapshots')), false);
  });

  test('a gated repo with HF_TOKEN: asked with the bearer token, stored; the token in no note', async () => {
    const { env, cacheDir } = freshEnv({ HF_TOKEN: TOKEN });
    const start = hub.requests.length;
    const notes = await fetchNotes([request('acme/Gated-Qwen2')], env);
    assert.deepEqual(hub.requests.slice(start).map((r) => r.authorization), [`Bearer ${TOKEN}`]);
    assert.ok(existsSync(join(cacheDir, 'models--acme--Gated-Qwen2', 'snapshots', MAIN, 'config.json')));
    assert.equal(notes.length, 1);
    assert.ok(!notes.join('\n').includes(TOKEN));
  });

  test("the token `hf auth login` stored under HF_HOME stands in for HF_TOKEN", async () => {
    const { env } = freshEnv();
    mkdirSync(String(env.HF_HOME), { recursive: true });
    writeFileSync(join(String(env.HF_HOME), 'token'), `${TOKEN}\n`);
    const start = hub.requests.length;
    await fetchNotes([request('acme/Gated-Qwen2')], env);
    assert.deepEqual(hub.requests.slice(start).map((r) => r.authorization), [`Bearer ${TOKEN}`]);
  });

  test('a repo the hub does not have: 404 in the line', async () => {
    const { env } = freshEnv();
    assert.match(await fetchError([request('acme/Nowhere')], env), /the hub at \S+ answered 404 \(no such repo\), and no bundled model matches/);
    assert.match(await fetchError([request('acme/Tiny-Qwen2', 'v9')], env), /revision v9 not in the HF cache at \S+, the hub at \S+ answered 404 \(no revision v9\)/);
  });

  test('a gated repo a bundled model matches falls through to it, with a note saying why', async () => {
    const { env } = freshEnv();
    const notes = await fetchNotes([request('meta-llama/Llama-3.1-8B-Instruct')], env);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, new RegExp(`^no config\\.json for meta-llama/Llama-3\\.1-8B-Instruct: not in the HF cache at .*, the hub at \\S+ answered 401 \\(gated: set HF_TOKEN\\); simulating the bundled Llama`));
    assert.equal(resolveModel(request('meta-llama/Llama-3.1-8B-Instruct'), env).model.key, 'llama-3.1-8b');
  });

  test('HF_HUB_OFFLINE=1: the hub receives no request, and nothing fails before resolution', async () => {
    const { env } = freshEnv({ HF_HUB_OFFLINE: '1', HF_TOKEN: TOKEN });
    const asked = requestsFrom();
    assert.deepEqual(await fetchNotes([request('acme/Tiny-Qwen2'), request('acme/Gated-Qwen2'), request('Qwen/Qwen3-8B')], env), []);
    assert.deepEqual(asked(), []);
  });

  test('local paths, catalog names and --sim-model ask nothing', async () => {
    const { env } = freshEnv();
    const asked = requestsFrom();
    await fetchNotes([request(root), request('qwen3-8b'), request('/models/acme/Tiny-Qwen2'), request('acme/Tiny-Qwen2', null, 'qwen3-8b')], env);
    assert.deepEqual(asked(), []);
  });

  test("a vision model's preprocessor_config.json comes with it into the same snapshot; a repo without one is fine", async () => {
    const { env, cacheDir } = freshEnv();
    assert.equal((await fetchNotes([request('acme/Tiny-VL'), request('acme/Tiny-VL-Bare')], env)).length, 2);
    assert.deepEqual(JSON.parse(readFileSync(join(cacheDir, 'models--acme--Tiny-VL', 'snapshots', MAIN, 'preprocessor_config.json'), 'utf8')), { max_pixels: 1000 });
    assert.equal(existsSync(join(cacheDir, 'models--acme--Tiny-VL-Bare', 'snapshots', MAIN, 'preprocessor_config.json')), false);
  });

  test('a config.json over the size cap is not stored', async () => {
    const { env, cacheDir } = freshEnv();
    assert.match(await fetchError([request('acme/Huge')], env), /the hub at \S+ sent a config\.json over 4 MiB, and no bundled model matches/);
    assert.equal(existsSync(join(cacheDir, 'models--acme--Huge', 'blobs')), false);
  });
});

describe('fetchModelConfigs: a hub that does not answer', () => {
  /** A loopback server that accepts connections and never answers. */
  let silent: Server;
  let closedPort: number;
  before(async () => {
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
  });
  after(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  test('unreachable: a bundled model is simulated with a note; otherwise the line names the failure', async () => {
    const { env } = freshEnv({ HF_ENDPOINT: `http://127.0.0.1:${closedPort}` });
    const notes = await fetchNotes([request('Qwen/Qwen3-8B')], env);
    assert.match(notes.join('\n'), new RegExp(`the hub at http://127\\.0\\.0\\.1:${closedPort} is unreachable \\(ECONNREFUSED\\); simulating the bundled Qwen3-8B$`));
    assert.match(await fetchError([request('acme/Tiny-Qwen2')], env), /the hub at \S+ is unreachable \(ECONNREFUSED\), and no bundled model matches/);
  });

  test('HF_HUB_DOWNLOAD_TIMEOUT bounds the wait', async () => {
    const { env } = freshEnv({ HF_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, HF_HUB_DOWNLOAD_TIMEOUT: '0.2' });
    const started = performance.now();
    assert.match(await fetchError([request('acme/Tiny-Qwen2')], env), /the hub at \S+ did not answer within 0\.2 s \(HF_HUB_DOWNLOAD_TIMEOUT raises the bound\)/);
    assert.ok(performance.now() - started < 5000);
  });

  test('a bad HF_HUB_DOWNLOAD_TIMEOUT or HF_ENDPOINT: one line naming the variable', async () => {
    assert.match(await fetchError([request('acme/Tiny-Qwen2')], freshEnv({ HF_HUB_DOWNLOAD_TIMEOUT: 'soon' }).env), /^HF_HUB_DOWNLOAD_TIMEOUT='soon' is not a number of seconds/);
    assert.match(await fetchError([request('acme/Tiny-Qwen2')], freshEnv({ HF_ENDPOINT: 'hub.local' }).env), /^HF_ENDPOINT is not an http\(s\) URL/);
  });
});
