/**
 * How many prompt tokens an image becomes in a Qwen vision-language model, as SGLang and the
 * model's processor count them:
 *   1. SGLang's own resize of every image (multimodal/processors/qwen_vl.py): to multiples of 28
 *      pixels, within 4·28² to 16384·28² pixels (its SGLANG_IMAGE_MAX_PIXELS default);
 *   2. the model's processor resizes again to multiples of patch × merge pixels (28 for
 *      Qwen2.5-VL's 14-pixel patches, 32 for Qwen3-VL's 16-pixel ones) within its pixel budget;
 *   3. each merged block of 2×2 patches is one token.
 * Both resizes are `smart_resize`: round each side to the factor when the area fits, else scale both
 * sides by one factor and floor (too large) or ceil (too small).
 */
import type { VisionConfig } from './catalog.js';

/** The multiple and the area range an image is resized to. */
export interface ResizeRule {
  factor: number;
  minPixels: number;
  maxPixels: number;
}

/** SGLang's resize before the processor (qwen_vl.py IMAGE_FACTOR, MIN_PIXELS, MAX_PIXELS). */
const SGLANG_QWEN_VL_RESIZE: ResizeRule = { factor: 28, minPixels: 4 * 28 * 28, maxPixels: 16384 * 28 * 28 };

/** SGLang refuses an image whose long side is this many times its short side or more (qwen_vl.py MAX_RATIO). */
export const MAX_IMAGE_ASPECT_RATIO = 200;

/** Python's `round()`: halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Qwen-VL's `smart_resize`: the (height, width) an image is resized to under `rule`. */
export function smartResize(height: number, width: number, rule: ResizeRule): { height: number; width: number } {
  const f = rule.factor;
  let h = Math.max(f, roundHalfEven(height / f) * f);
  let w = Math.max(f, roundHalfEven(width / f) * f);
  if (h * w > rule.maxPixels) {
    const beta = Math.sqrt((height * width) / rule.maxPixels);
    h = Math.max(f, Math.floor(height / beta / f) * f);
    w = Math.max(f, Math.floor(width / beta / f) * f);
  } else if (h * w < rule.minPixels) {
    const beta = Math.sqrt(rule.minPixels / (height * width));
    h = Math.ceil((height * beta) / f) * f;
    w = Math.ceil((width * beta) / f) * f;
  }
  return { height: h, width: w };
}

/** Prompt tokens one `width` × `height` image becomes (its placeholder's markers not included). */
export function imageTokens(vision: VisionConfig, width: number, height: number): number {
  const sglang = smartResize(height, width, SGLANG_QWEN_VL_RESIZE);
  const factor = vision.patchSize * vision.mergeSize;
  const model = smartResize(sglang.height, sglang.width, { factor, minPixels: vision.minPixels, maxPixels: vision.maxPixels });
  return (model.height / factor) * (model.width / factor);
}
