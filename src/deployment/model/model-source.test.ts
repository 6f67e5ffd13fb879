import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { writeCachedRepo } from '../../../test/helpers/hf-cache.js';
import { localConfigPath, localModelName, type ModelRequest, resolveModel } from './model-source.js';

const root = mkdtempSync(join(tmpdir(), 'servebench-model-source-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** An HF cache of the test's own, so no test reads the developer's. */
const cacheDir = join(root, 'hf-cache');
const env = { HF_HUB_CACHE: cacheDir };

const request = (modelPath: string, simModel: string | null = null, revision: string | null = null): ModelRequest => ({ modelPath, revision, simModel });
const resolve = (modelPath: string, simModel: string | null = null, revision: string | null = null) => resolveModel(request(modelPath, simModel, revision), env);

/** A made-up model the catalog does not know: 20 layers of GQA. */
const madeUp = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', num_hidden_layers: 20, hidden_size: 2048, num_attention_heads: 16,
  num_key_value_heads: 4, intermediate_size: 5632, vocab_size: 32000, max_position_embeddings: 8192,
};

function modelDir(path: string, config: unknown): string {
  const dir = join(root, path);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

describe('resolveModel', () => {
  test('a local directory with a config.json gives the architecture, named after the directory', () => {
    const dir = modelDir('Made-Up-20L', madeUp);
    const { model, announcedQuant } = resolve(dir);
    assert.deepEqual([model.name, model.layers, model.kvHeads, model.headDim, model.source], ['Made-Up-20L', 20, 4, 128, join(dir, 'config.json')]);
    assert.equal(announcedQuant, null);
  });

  test('the config wins over a catalogued name; --sim-model wins over the config', () => {
    const dir = modelDir('Qwen3-32B', madeUp);
    assert.equal(resolve(dir).model.layers, 20);
    assert.equal(resolve(dir, 'qwen3-8b').model.key, 'qwen3-8b');
  });

  test("a cached hub id that names a bundled model keeps that entry's identity (key, EAGLE3 draft) with the cached architecture", () => {
    writeCachedRepo(cacheDir, 'Qwen/Qwen3-32B-FP8', { refs: { main: 'c0ffee' }, commits: { c0ffee: { 'config.json': { ...madeUp, quantization_config: { quant_method: 'fp8' } } } } });
    const { model } = resolve('Qwen/Qwen3-32B-FP8');
    assert.deepEqual([model.key, model.eagle3Draft, model.layers, model.nativeQuant], ['qwen3-32b', true, 20, 'fp8']);
    assert.match(model.source, /models--Qwen--Qwen3-32B-FP8/);
  });

  test("quantization_config is the announced format; a 16-bit config leaves it to the name's suffix", () => {
    const fp8 = modelDir('quantized/fp8-model', { ...madeUp, quantization_config: { quant_method: 'fp8' } });
    assert.deepEqual([resolve(fp8).model.nativeQuant, resolve(fp8).announcedQuant], ['fp8', 'fp8']);
    assert.equal(resolve(modelDir('quantized/Made-Up-W8A8', madeUp)).announcedQuant, 'w8a8');
  });

  test('an HF cache model directory resolves through refs/main to its snapshot', () => {
    const cache = join(root, 'hub', 'models--acme--Made-Up-7B');
    modelDir('hub/models--acme--Made-Up-7B/snapshots/0123abcd', madeUp);
    mkdirSync(join(cache, 'refs'), { recursive: true });
    writeFileSync(join(cache, 'refs', 'main'), '0123abcd\n');
    assert.equal(localConfigPath(cache), join(cache, 'snapshots', '0123abcd', 'config.json'));
    assert.equal(resolve(cache).model.name, 'Made-Up-7B');
    assert.equal(resolve(join(cache, 'snapshots', '0123abcd')).model.name, 'Made-Up-7B');
  });

  test('a hub id the HF cache does not hold is matched by name against the bundled catalog', () => {
    assert.equal(localConfigPath('Qwen/Qwen3-32B-FP8'), null);
    const { model, announcedQuant } = resolve('Qwen/Qwen3-32B-FP8');
    assert.deepEqual([model.key, announcedQuant], ['qwen3-32b', 'fp8']);
    assert.equal(localModelName('/data/models/Made-Up/'), 'Made-Up');
  });

  test('a config.json that is not JSON: one line naming the file', () => {
    const dir = modelDir('broken-json', '{"model_type": ');
    assert.throws(
      () => resolve(dir),
      (e: unknown) => e instanceof UserError && e.message.startsWith(join(dir, 'config.json')) && !e.message.includes('\n'),
    );
  });
});

describe('resolveModel: a hub id through the HF cache', () => {
  const main = 'a'.repeat(40);
  const tagged = 'b'.repeat(40);
  writeCachedRepo(cacheDir, 'acme/Made-Up-20L', {
    refs: { main, v2: tagged },
    commits: { [main]: { 'config.json': madeUp }, [tagged]: { 'config.json': { ...madeUp, num_hidden_layers: 24 } } },
  });

  test("refs/main names the snapshot whose config.json is read; the model is named after the repo", () => {
    const { model } = resolve('acme/Made-Up-20L');
    assert.deepEqual([model.name, model.layers], ['Made-Up-20L', 20]);
    assert.equal(model.source, join(cacheDir, 'models--acme--Made-Up-20L', 'snapshots', main, 'config.json'));
  });

  test('--revision picks a tag through its ref, or a commit directly', () => {
    assert.equal(resolve('acme/Made-Up-20L', null, 'v2').model.layers, 24);
    assert.equal(resolve('acme/Made-Up-20L', null, tagged).model.layers, 24);
  });

  test('a cached config.json wins over a bundled model of the same name; --sim-model wins over both', () => {
    writeCachedRepo(cacheDir, 'Qwen/Qwen3-8B', { refs: { main }, commits: { [main]: { 'config.json': madeUp } } });
    assert.equal(resolve('Qwen/Qwen3-8B').model.layers, 20);
    assert.equal(resolve('Qwen/Qwen3-8B', 'qwen3-32b').model.key, 'qwen3-32b');
  });

  test('HF_HOME/hub is the cache when HF_HUB_CACHE is not set', () => {
    const home = join(root, 'hf-home');
    writeCachedRepo(join(home, 'hub'), 'acme/Home-Model', { refs: { main }, commits: { [main]: { 'config.json': madeUp } } });
    assert.equal(resolveModel(request('acme/Home-Model'), { HF_HOME: home }).model.name, 'Home-Model');
  });

  test('a revision the cache lacks, of a model no bundled entry matches: one line naming the cache, the revision and the fixes', () => {
    const messageOf = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        assert.ok(error instanceof UserError && !error.message.includes('\n'), String(error));
        return error.message;
      }
      return assert.fail('resolved');
    };
    const line = messageOf(() => resolve('acme/Made-Up-20L', null, 'v3'));
    const expected = `no config.json for acme/Made-Up-20L: revision v3 not in the HF cache at ${cacheDir}, and no bundled model matches; pass --sim-model with one of `;
    assert.ok(line.startsWith(expected), line);
    assert.match(line, /, or a local --model-path$/);
    const offline = messageOf(() => resolveModel(request('acme/Unknown'), { ...env, HF_HUB_OFFLINE: '1' }));
    assert.ok(offline.startsWith(`no config.json for acme/Unknown: not in the HF cache at ${cacheDir}, HF_HUB_OFFLINE=1 kept the hub from being asked, and no bundled model matches`), offline);
  });
});
