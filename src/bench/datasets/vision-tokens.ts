/**
 * Image sizes and the vision-token count servebench assigns to an image.
 *
 * bench_serving asks the model's HF processor how many ids an image expands to; offline there is
 * no processor, so servebench applies the Qwen2-VL / Qwen2.5-VL rule to every model:
 *   1. resize to the nearest multiples of 28 (patch 14 × merge 2) on each side, keeping the
 *      pixel count within [56·56, 28·28·1280] by scaling both sides by the same factor
 *      (`smart_resize`: round when it fits, floor when shrinking, ceil when growing);
 *   2. one token per 28×28 block of the resized image;
 *   3. plus the two markers around it (`<|vision_start|>` … `<|vision_end|>`).
 */
import { UsageError } from '../../core/errors.js';
import { smartResize as resizeWithin } from '../../core/smart-resize.js';

export const VISION_FACTOR = 28;
export const VISION_MIN_PIXELS = 56 * 56;
export const VISION_MAX_PIXELS = 28 * 28 * 1280;
/** `<|vision_start|>` and `<|vision_end|>` around each image's tokens. */
export const VISION_MARKER_TOKENS = 2;

const PRESETS: Record<string, { width: number; height: number }> = {
  '4k': { width: 3840, height: 2160 },
  '1080p': { width: 1920, height: 1080 },
  '720p': { width: 1280, height: 720 },
  '360p': { width: 640, height: 360 },
};

/** `--image-resolution`: a preset, or `HxW` (height first: `1080x1920` is 1920 wide). */
export function parseImageResolution(value: string): { width: number; height: number } {
  const preset = PRESETS[value];
  if (preset) return preset;
  const match = /^(\d+)x(\d+)$/.exec(value.trim().toLowerCase());
  if (match) {
    const height = Number(match[1]);
    const width = Number(match[2]);
    if (height > 0 && width > 0) return { width, height };
  }
  throw new UsageError(`unsupported --image-resolution ${value}: choose 4k, 1080p, 720p, 360p or HEIGHTxWIDTH (e.g. 1080x1920)`);
}

/** Qwen2-VL `smart_resize` with the rule above: the (height, width) the processor feeds the vision tower. */
export function smartResize(height: number, width: number): { height: number; width: number } {
  return resizeWithin(height, width, { factor: VISION_FACTOR, minPixels: VISION_MIN_PIXELS, maxPixels: VISION_MAX_PIXELS });
}

/** Prompt tokens one image adds: one per 28×28 block after resizing, plus the two markers. */
export function visionTokensPerImage(width: number, height: number): number {
  const resized = smartResize(height, width);
  return (resized.height / VISION_FACTOR) * (resized.width / VISION_FACTOR) + VISION_MARKER_TOKENS;
}
