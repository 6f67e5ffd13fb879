import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { localConfigPath, localModelName, resolveModel } from './model-source.js';

const root = mkdtempSync(join(tmpdir(), 'servebench-model-source-'));
after(() => rmSync(root, { recursive: true, force: true }));

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
    const { model, announcedQuant } = resolveModel(dir, null);
    assert.deepEqual([model.name, model.layers, model.kvHeads, model.headDim, model.source], ['Made-Up-20L', 20, 4, 128, join(dir, 'config.json')]);
    assert.equal(announcedQuant, null);
  });

  test('the config wins over a catalogued name; --sim-model wins over the config', () => {
    const dir = modelDir('Qwen3-32B', madeUp);
    assert.equal(resolveModel(dir, null).model.layers, 20);
    assert.equal(resolveModel(dir, 'qwen3-8b').model.key, 'qwen3-8b');
  });

  test("quantization_config is the announced format; a 16-bit config leaves it to the name's suffix", () => {
    const fp8 = modelDir('quantized/fp8-model', { ...madeUp, quantization_config: { quant_method: 'fp8' } });
    assert.deepEqual([resolveModel(fp8, null).model.nativeQuant, resolveModel(fp8, null).announcedQuant], ['fp8', 'fp8']);
    assert.equal(resolveModel(modelDir('quantized/Made-Up-W8A8', madeUp), null).announcedQuant, 'w8a8');
  });

  test('an HF cache model directory resolves through refs/main to its snapshot', () => {
    const cache = join(root, 'hub', 'models--acme--Made-Up-7B');
    modelDir('hub/models--acme--Made-Up-7B/snapshots/0123abcd', madeUp);
    mkdirSync(join(cache, 'refs'), { recursive: true });
    writeFileSync(join(cache, 'refs', 'main'), '0123abcd\n');
    assert.equal(localConfigPath(cache), join(cache, 'snapshots', '0123abcd', 'config.json'));
    assert.equal(resolveModel(cache, null).model.name, 'Made-Up-7B');
    assert.equal(resolveModel(join(cache, 'snapshots', '0123abcd'), null).model.name, 'Made-Up-7B');
  });

  test('a path that is no local directory is matched by name', () => {
    assert.equal(localConfigPath('Qwen/Qwen3-32B-FP8'), null);
    const { model, announcedQuant } = resolveModel('Qwen/Qwen3-32B-FP8', null);
    assert.deepEqual([model.key, announcedQuant], ['qwen3-32b', 'fp8']);
    assert.equal(localModelName('/data/models/Made-Up/'), 'Made-Up');
  });

  test('a config.json that is not JSON: one line naming the file', () => {
    const dir = modelDir('broken-json', '{"model_type": ');
    assert.throws(
      () => resolveModel(dir, null),
      (e: unknown) => e instanceof UserError && e.message.startsWith(join(dir, 'config.json')) && !e.message.includes('\n'),
    );
  });
});
