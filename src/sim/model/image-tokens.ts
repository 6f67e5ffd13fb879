/**
 * How many prompt tokens an image becomes in a Qwen vision-language model, as SGLang and the
 * model's processor count them:
 *   1. SGLang's own resize of every image (multimodal/processors/qwen_vl.py): to multiples of 28
 *      pixels, within 4·28² to 16384·28² pixels (its SGLANG_IMAGE_MAX_PIXELS default);
 *   2. the model's processor resizes again to multiples of patch × merge pixels (28 for
 *      Qwen2.5-VL's 14-pixel patches, 32 for Qwen3-VL's 16-pixel ones) within its pixel budget;
 *   3. each merged block of 2×2 patches is one token.
 * Both resizes are Qwen-VL's `smart_resize` (core/smart-resize.ts).
 */
import { smartResize, type ResizeRule } from '../../core/smart-resize.js';
import type { VisionConfig } from '../../deployment/index.js';

/** SGLang's resize before the processor (qwen_vl.py IMAGE_FACTOR, MIN_PIXELS, MAX_PIXELS). */
const SGLANG_QWEN_VL_RESIZE: ResizeRule = { factor: 28, minPixels: 4 * 28 * 28, maxPixels: 16384 * 28 * 28 };

/** SGLang refuses an image whose long side is more than this many times its short side (qwen_vl.py MAX_RATIO). */
export const MAX_IMAGE_ASPECT_RATIO = 200;

/** Prompt tokens one `width` × `height` image becomes (its placeholder's markers not included). */
export function imageTokens(vision: VisionConfig, width: number, height: number): number {
  const sglang = smartResize(height, width, SGLANG_QWEN_VL_RESIZE);
  const factor = vision.patchSize * vision.mergeSize;
  const model = smartResize(sglang.height, sglang.width, { factor, minPixels: vision.minPixels, maxPixels: vision.maxPixels });
  return (model.height / factor) * (model.width / factor);
}
