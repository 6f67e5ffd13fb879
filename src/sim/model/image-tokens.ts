/**
 * How many prompt tokens an image becomes in a vision-language model, by its processor's rule (the
 * model's VisionConfig.tokens; deployment/model/hf-vision.ts reads each from the config):
 * - qwen-resize (Qwen-VL): SGLang's own resize of every image (multimodal/processors/qwen_vl.py) to
 *   multiples of 28 pixels within 4·28² to 16384·28² pixels (its SGLANG_IMAGE_MAX_PIXELS default), then
 *   the processor's to multiples of patch × merge within its pixel budget (both Qwen-VL's
 *   `smart_resize`, core/smart-resize.ts); one token per merged block;
 * - fixed (Gemma 3): the same count for every image;
 * - pooled-budget (Gemma 4, transformers' Gemma4ImageProcessor): resized, aspect kept, to the most
 *   patches within maxTokens × pooling² with both sides multiples of pooling × patch (up or down);
 *   one token per pooling² patches;
 * - tiles (Llama 4, transformers' Llama4Processor): the canvas image-tiles.ts picks; each tile is its
 *   patch tokens and one separator token, and a canvas of several tiles adds a global tile (after
 *   its `<|image|>` token) of the same count;
 * - navit (Kimi-K2.5, SGLang's kimi_k25.py navit_resize_config): scaled down, never up, to at most
 *   maxPatches patches and maxPatchesPerSide patches a side, padded to merged blocks; one token each;
 * - rows-with-breaks (Mistral 3's Pixtral, transformers' PixtralImageProcessor): scaled down, aspect
 *   kept, until both sides fit the longest edge; one token per merged block of patches, and one
 *   [IMG_BREAK] (the last row: [IMG_END]) per row of blocks;
 * - global-and-crops (DeepSeek-OCR, SGLang's Gundam mode): the global view's rows of tokens with a
 *   newline each and a view separator; an image larger than one crop adds the crop grid image-tiles.ts
 *   picks, its rows of tokens with a newline each.
 */
import { smartResize, type ResizeRule } from '../../core/smart-resize.js';
import type { ImageTokenRule, VisionConfig } from '../../deployment/index.js';
import { closestCropGrid, llama4Canvas } from './image-tiles.js';

/** SGLang's resize before the processor (qwen_vl.py IMAGE_FACTOR, MIN_PIXELS, MAX_PIXELS). */
const SGLANG_QWEN_VL_RESIZE: ResizeRule = { factor: 28, minPixels: 4 * 28 * 28, maxPixels: 16384 * 28 * 28 };

/** SGLang refuses an image whose long side is more than this many times its short side (qwen_vl.py MAX_RATIO). */
export const MAX_IMAGE_ASPECT_RATIO = 200;

type Rule<K extends ImageTokenRule['rule']> = Extract<ImageTokenRule, { rule: K }>;

function qwenResize(r: Rule<'qwen-resize'>, width: number, height: number): number {
  const sglang = smartResize(height, width, SGLANG_QWEN_VL_RESIZE);
  const factor = r.patchSize * r.mergeSize;
  const model = smartResize(sglang.height, sglang.width, { factor, minPixels: r.minPixels, maxPixels: r.maxPixels });
  return (model.height / factor) * (model.width / factor);
}

function pooledBudget(r: Rule<'pooled-budget'>, width: number, height: number): number {
  const side = r.pooling * r.patchSize;
  const factor = Math.sqrt((r.maxTokens * r.pooling * r.pooling * r.patchSize * r.patchSize) / (height * width));
  let h = Math.floor((factor * height) / side) * side;
  let w = Math.floor((factor * width) / side) * side;
  // A sliver rounds one side to nothing: it keeps one block that way and its aspect the other, within the budget.
  if (h === 0) [h, w] = [side, Math.min(Math.floor(width / height) * side, r.maxTokens * side)];
  else if (w === 0) [h, w] = [Math.min(Math.floor(height / width) * side, r.maxTokens * side), side];
  return (h / side) * (w / side);
}

function tiles(r: Rule<'tiles'>, width: number, height: number): number {
  const canvas = llama4Canvas(width, height, r.tileSize, r.maxTiles);
  const count = canvas.across * canvas.down;
  return (r.tokensPerTile + 1) * (count > 1 ? count + 1 : 1);
}

function navit(r: Rule<'navit'>, width: number, height: number): number {
  const sideLimit = r.maxPatchesPerSide * r.patchSize;
  const patches = Math.max(1, Math.floor(width / r.patchSize)) * Math.max(1, Math.floor(height / r.patchSize));
  const scale = Math.min(1, Math.sqrt(r.maxPatches / patches), sideLimit / width, sideLimit / height);
  const block = r.mergeSize * r.patchSize;
  const resized = (pixels: number) => Math.min(Math.max(1, Math.floor(pixels * scale)), sideLimit);
  return Math.ceil(resized(height) / block) * Math.ceil(resized(width) / block);
}

function rowsWithBreaks(r: Rule<'rows-with-breaks'>, width: number, height: number): number {
  const scale = Math.min(1, r.longestEdge / Math.max(width, height));
  const blocks = (pixels: number): number => Math.ceil(Math.ceil(Math.max(1, Math.floor(pixels * scale)) / r.patchSize) / r.mergeSize);
  return blocks(height) * (blocks(width) + 1);
}

function globalAndCrops(r: Rule<'global-and-crops'>, width: number, height: number): number {
  const global = r.globalQueries * (r.globalQueries + 1) + 1;
  if (width <= r.cropSize && height <= r.cropSize) return global;
  const grid = closestCropGrid(width, height, r.cropSize, r.minCrops, r.maxCrops);
  return global + (r.cropQueries * grid.across + 1) * (r.cropQueries * grid.down);
}

/** Prompt tokens one `width` × `height` image becomes (its placeholder's start and end markers not included). */
export function imageTokens(vision: VisionConfig, width: number, height: number): number {
  const r = vision.tokens;
  switch (r.rule) {
    case 'qwen-resize':
      return qwenResize(r, width, height);
    case 'fixed':
      return r.perImage;
    case 'pooled-budget':
      return pooledBudget(r, width, height);
    case 'tiles':
      return tiles(r, width, height);
    case 'navit':
      return navit(r, width, height);
    case 'rows-with-breaks':
      return rowsWithBreaks(r, width, height);
    case 'global-and-crops':
      return globalAndCrops(r, width, height);
  }
}
