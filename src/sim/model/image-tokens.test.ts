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

test('Gemma 3: every image is its mm_tokens_per_image, 256', () => {
  assert.equal(imageTokens(vision('gemma-3-27b'), 640, 360), 256);
  assert.equal(imageTokens(vision('gemma-3-12b'), 3000, 2000), 256);
});

test('Gemma 4: resized within 280 tokens of 3×3 16-pixel patches, each side a multiple of 48 pixels', () => {
  // 640×360 scaled by √(280·9·256 / 230400) ≈ 1.673 to 1070.9×602.4, rounded down to 1056×576: 22 × 12 tokens.
  assert.equal(imageTokens(vision('gemma-4-31b'), 640, 360), 22 * 12);
  // 1000×1000 scaled by ≈ 0.803 to 803.2 a side, rounded down to 768: 16 × 16.
  assert.equal(imageTokens(vision('gemma-4-26b-a4b'), 1000, 1000), 16 * 16);
});

test('Llama 4: 144 patch tokens and a separator per 336-pixel tile, plus a global tile when there are several', () => {
  const scout = vision('llama-4-scout-17b-16e');
  // One tile fits 336×336 exactly.
  assert.equal(imageTokens(scout, 336, 336), 145);
  // 640×360: the least upscaling is 672/640 = 1.05, on a 2×2 canvas (fewer tiles than 3×2 at the same scale).
  assert.equal(imageTokens(scout, 640, 360), 145 * (4 + 1));
  // 1920×1080 fits no canvas of ≤ 16 tiles upscaled; the least downscaling is 5 across × 3 down (0.875).
  assert.equal(imageTokens(vision('llama-4-maverick-17b-128e'), 1920, 1080), 145 * (15 + 1));
});

test('Kimi-K2.5: never upscaled, capped at 16384 patches of 14 pixels, one token per 28×28 block, padded up', () => {
  const kimi = vision('kimi-k2.5');
  // 640×360 stays: ⌈640/28⌉ × ⌈360/28⌉ = 23 × 13.
  assert.equal(imageTokens(kimi, 640, 360), 23 * 13);
  // 5000×4000 is 357 × 285 patches: scaled by √(16384 / 101745) to 2006×1605, then 72 × 58 blocks.
  assert.equal(imageTokens(kimi, 5000, 4000), 72 * 58);
});

test('DeepSeek-OCR: the 1024 global view (16 rows of 16 + a newline, a separator), and 640-pixel crops for a larger image', () => {
  const ocr = vision('deepseek-ocr');
  assert.equal(imageTokens(ocr, 640, 360), 16 * 17 + 1);
  // 1920×1080 (aspect 1.78) is closest to a 2×1 grid: 10 rows of 2 × 10 tokens and a newline each.
  assert.equal(imageTokens(ocr, 1920, 1080), 273 + 21 * 10);
  // 800×600 (aspect 1.33) is closest to 3×2.
  assert.equal(imageTokens(ocr, 800, 600), 273 + 31 * 20);
});

test('Mistral 3 (Pixtral): scaled to fit 1540 pixels, one token per 28×28 block and a break token per row', () => {
  const pixtral = getModel('mistral-small-3.1-24b')!.vision!;
  // 640×360: 23 blocks across, 13 rows (360/28 rounded up), each row followed by a break or the end token.
  assert.equal(imageTokens(pixtral, 640, 360), 13 * (23 + 1));
  // 3080×1540 halves to 1540×770: 55 blocks across, 28 rows.
  assert.equal(imageTokens(pixtral, 3080, 1540), 28 * (55 + 1));
});
