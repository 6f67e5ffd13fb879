/**
 * `servebench predict --model-path org/name` finds the model's config.json as SGLang does: in the
 * Hugging Face cache, else from the hub (a loopback mock here, through HF_ENDPOINT) into that cache,
 * a gated repo with HF_TOKEN; offline never asks. Every run has a home and HF_HOME of its own, so
 * nothing reads or writes the developer's ~/.cache.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli, type CliResult } from './helpers/cli.js';
import { TINY_QWEN2_CONFIG as tinyQwen2, writeCachedRepo } from './helpers/hf-cache.js';
import { startMockHub, type MockHub } from './helpers/mock-hub.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-hub-config-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

const MAIN = 'c'.repeat(40);
const TAGGED = 'd'.repeat(40);
const TOKEN = 'hf_cli_test_token_never_printed';

const WORKLOAD = ['--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '4'];

let hub: MockHub;
before(async () => {
  hub = await startMockHub({
    'acme/Tiny-Qwen2': { refs: { main: MAIN, v2: TAGGED }, commits: { [MAIN]: { 'config.json': tinyQwen2 }, [TAGGED]: { 'config.json': { ...tinyQwen2, num_hidden_layers: 12 } } } },
    'acme/Gated-Qwen2': { refs: { main: MAIN }, commits: { [MAIN]: { 'config.json': tinyQwen2 } }, token: TOKEN },
  });
});
after(() => hub.close());

let homes = 0;
/** A home and HF_HOME of one test's own, the hub the mock; HF_HUB_CACHE unset so the cache is HF_HOME/hub. */
function isolatedHome(extra: Record<string, string> = {}): { env: Record<string, string>; hfHome: string } {
  const home = join(workDir, `home-${++homes}`);
  const hfHome = join(home, 'hf');
  return { env: { HOME: home, HF_HOME: hfHome, HF_HUB_CACHE: '', HF_HUB_OFFLINE: '', HF_TOKEN: '', HF_ENDPOINT: hub.endpoint, ...extra }, hfHome };
}

function predict(model: string, env: Record<string, string>, launch: string[] = []): Promise<CliResult> {
  return runCli(['predict', '--model-path', model, ...launch, '--hardware', 'h100', '--', ...WORKLOAD], { env });
}

/** The URLs the mock hub received while `run` ran. */
async function hubRequests<T>(run: () => Promise<T>): Promise<{ result: T; urls: string[] }> {
  const start = hub.requests.length;
  const result = await run();
  return { result, urls: hub.requests.slice(start).map((request) => request.url) };
}

describe('servebench predict --model-path org/name', () => {
  test("from the hub into HF_HOME/hub in huggingface_hub's layout, then from the cache without asking again", async () => {
    const { env, hfHome } = isolatedHome();
    const first = await hubRequests(() => predict('acme/Tiny-Qwen2', env));
    assert.equal(first.result.code, 0, first.result.stderr);
    assert.deepEqual(first.urls, ['/acme/Tiny-Qwen2/resolve/main/config.json']);
    assert.match(first.result.stdout, /^servebench predict: Tiny-Qwen2 on 1 x h100: .*virtual time, no server contacted$/m);
    assert.match(first.result.stdout, /^Successful requests:\s+4\s*$/m);
    const folder = join(hfHome, 'hub', 'models--acme--Tiny-Qwen2');
    assert.match(first.result.stderr, new RegExp(`^servebench predict: config\\.json of acme/Tiny-Qwen2 \\(main, commit ${MAIN.slice(0, 12)}\\) fetched from http://127\\.0\\.0\\.1:\\d+ into ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.equal(readFileSync(join(folder, 'refs', 'main'), 'utf8'), MAIN);
    assert.ok(existsSync(join(folder, 'snapshots', MAIN, 'config.json')));

    const again = await hubRequests(() => predict('acme/Tiny-Qwen2', env));
    assert.equal(again.result.code, 0, again.result.stderr);
    assert.deepEqual(again.urls, []);
    // The same 24-layer model either way: the same figures (the wall time of computing them aside).
    const block = (stdout: string) => stdout.slice(stdout.indexOf('============ Serving Benchmark Result'), stdout.indexOf('Prediction ('));
    assert.equal(block(again.result.stdout), block(first.result.stdout));
  });

  test('--revision asks for that revision and records its commit under refs/', async () => {
    const { env, hfHome } = isolatedHome();
    const { result, urls } = await hubRequests(() => predict('acme/Tiny-Qwen2', env, ['--revision', 'v2']));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(urls, ['/acme/Tiny-Qwen2/resolve/v2/config.json']);
    assert.equal(readFileSync(join(hfHome, 'hub', 'models--acme--Tiny-Qwen2', 'refs', 'v2'), 'utf8'), TAGGED);
  });

  test('a gated repo without HF_TOKEN: exit 1 and one line saying the hub answered 401 and what to set', async () => {
    const { env } = isolatedHome();
    const result = await predict('acme/Gated-Qwen2', env);
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, /^servebench predict: error: no config\.json for acme\/Gated-Qwen2: not in the HF cache at \S+, the hub at http:\/\/127\.0\.0\.1:\d+ answered 401 \(gated: set HF_TOKEN\), and no bundled model matches; pass --sim-model with one of .*, or a local --model-path$/);
    assert.equal(result.stdout, '');
  });

  test('a gated repo with HF_TOKEN: fetched with the token, which appears in no output', async () => {
    const { env, hfHome } = isolatedHome({ HF_TOKEN: TOKEN });
    const start = hub.requests.length;
    const result = await predict('acme/Gated-Qwen2', env);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(hub.requests.slice(start).map((request) => request.authorization), [`Bearer ${TOKEN}`]);
    assert.ok(existsSync(join(hfHome, 'hub', 'models--acme--Gated-Qwen2', 'snapshots', MAIN, 'config.json')));
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN));
  });

  test('HF_HUB_OFFLINE=1: the hub is never asked; the cache still serves, --revision included', async () => {
    const { env, hfHome } = isolatedHome({ HF_HUB_OFFLINE: '1', HF_TOKEN: TOKEN });
    const missing = await hubRequests(() => predict('acme/Tiny-Qwen2', env));
    assert.equal(missing.result.code, 1);
    assert.match(missing.result.stderr, /^servebench predict: error: no config\.json for acme\/Tiny-Qwen2: not in the HF cache at \S+, HF_HUB_OFFLINE=1 kept the hub from being asked, and no bundled model matches; /);
    writeCachedRepo(join(hfHome, 'hub'), 'acme/Tiny-Qwen2', { refs: { main: MAIN, v2: TAGGED }, commits: { [MAIN]: { 'config.json': tinyQwen2 }, [TAGGED]: { 'config.json': tinyQwen2 } } });
    const cached = await hubRequests(() => predict('acme/Tiny-Qwen2', env, ['--revision', 'v2']));
    assert.equal(cached.result.code, 0, cached.result.stderr);
    assert.deepEqual([...missing.urls, ...cached.urls], []);
  });
});
