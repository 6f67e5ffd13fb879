import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getModel } from '../../deployment/model/bundled-models.js';
import { imageTokens } from './image-tokens.js';

const vision = (key: string) => getModel(key)!.vision!;

test('Qwen2.5-VL: 14-pixel patches merged 2×2, one token per 28×28 block after resizing to multiples of 28', () => {
  // 640×360 → 644×364: 23 × 13 blocks.
  assert.equal(imageTokens(vision('qwen2.5-vl-7b'), 640, 360), 13 * 23);
  assert.equal(imageTokens(vision('qwen2.5-vl-72b'), 1920, 1080), (1092 / 28) * (1932 / 28));
  // Small images grow to the minimum area: 4 blocks.
  assert.equal(imageTokens(vision('qwen2.5-vl-3b'), 20, 20), 4);
});

test("Qwen3-VL: 16-pixel patches, 32-pixel merged blocks, within its processor's 65536 to 16777216 pixels", () => {
  // SGLang's 644×364, then the processor's 640×352: 20 × 11 blocks.
  assert.equal(imageTokens(vision('qwen3-vl-8b'), 640, 360), 20 * 11);
  assert.equal(imageTokens(vision('qwen3-vl-30b-a3b'), 1920, 1080), 60 * 34);
  // The minimum area is 256×256 pixels: 8 × 8 blocks.
  assert.equal(imageTokens(vision('qwen3-vl-235b-a22b'), 64, 64), 64);
});
