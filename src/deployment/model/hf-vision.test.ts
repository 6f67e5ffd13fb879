import assert from 'node:assert/strict';
import { test } from 'node:test';
import { totalParams } from '../../sim/model/params.js';
import { getModel } from './bundled-models.js';

/** What a bundled model's tower adds to its total. */
function towerParams(key: string): number {
  const model = getModel(key)!;
  return totalParams(model) - totalParams({ ...model, vision: undefined });
}

/** One encoder block: q, k, v, o of width², and an MLP of two (or, gated, three) width × intermediate matrices. */
const block = (width: number, intermediate: number, matrices = 2) => 4 * width * width + matrices * width * intermediate;

test('Llama 4: 34 GELU blocks of 1408, patch and position embeddings, pixel-shuffle adapter 5632 → 4096 → 4096, projector 4096 → text 5120', () => {
  const expected =
    34 * block(1408, 5632) + 3 * 14 * 14 * 1408 + (24 * 24 + 1) * 1408 + 1408 + 5632 * 4096 + 4096 * 4096 + 4096 * 5120;
  assert.equal(towerParams('llama-4-scout-17b-16e'), expected);
  assert.equal(towerParams('llama-4-maverick-17b-128e'), expected);
});

test('Gemma 4: 27 GeGLU blocks of 1152 (MLP 4304), 16-pixel patch embedding, two 10240-entry position tables, projector to the text width', () => {
  const tower = (textHidden: number) => 27 * block(1152, 4304, 3) + 3 * 16 * 16 * 1152 + 2 * 10240 * 1152 + 1152 * textHidden;
  assert.equal(towerParams('gemma-4-31b'), tower(getModel('gemma-4-31b')!.hidden));
  assert.equal(towerParams('gemma-4-26b-a4b'), tower(getModel('gemma-4-26b-a4b')!.hidden));
});

test('Gemma 3: SigLIP, 27 GELU blocks of 1152 (MLP 4304), 14-pixel patches of an 896 image, projector to the text width', () => {
  assert.equal(towerParams('gemma-3-27b'), 27 * block(1152, 4304) + 3 * 14 * 14 * 1152 + 64 * 64 * 1152 + 1152 * 5376);
});

test('Kimi-K2.5: MoonViT, 27 GELU blocks of 1152 (MLP 4304), a 64×64 position grid, patch merger 4608 → 4608 → 7168', () => {
  assert.equal(towerParams('kimi-k2.5'), 27 * block(1152, 4304) + 3 * 14 * 14 * 1152 + 64 * 64 * 1152 + 4608 * 4608 + 4608 * 7168);
});

test('DeepSeek-OCR: SAM ViT-B (12 × 768) with its neck, CLIP-L (24 × 1024), linear projector 2048 → 1280', () => {
  const sam = 12 * block(768, 3072) + 3 * 16 * 16 * 768 + 64 * 64 * 768 + 768 * 256 + 9 * 256 * 256 + 9 * 256 * 512 + 9 * 512 * 1024;
  const clip = 24 * block(1024, 4096) + 3 * 14 * 14 * 1024 + 257 * 1024 + 1024;
  assert.equal(towerParams('deepseek-ocr'), sam + clip + 2048 * 1280 + 2 * 1280);
});

test('Qwen3.5: the Qwen3-VL tower, 27 blocks of 1152 (MLP 4304), 2304 learned positions, one merger to the text width', () => {
  const merged = 4 * 1152;
  assert.equal(towerParams('qwen3.5-27b'), 27 * block(1152, 4304) + 3 * 2 * 16 * 16 * 1152 + 2304 * 1152 + merged * merged + merged * 5120);
});
