/**
 * Images in a request to a vision-language model, counted as the model's processor counts them:
 * each image's placeholder pad token in the prompt becomes one token per merged patch block of
 * the resized image (sim/model/image-tokens.ts). As SGLang pads an image's tokens with a value
 * derived from the image, equal images share a cached prefix and different ones do not.
 * Images come as data URIs (or bare base64, which SGLang also accepts): the sim fetches nothing.
 */
import { createHash } from 'node:crypto';
import { HttpError } from '../../core/http-error.js';
import type { VisionConfig } from '../../deployment/index.js';
import { MAX_IMAGE_ASPECT_RATIO, imageTokens } from '../model/image-tokens.js';
import { imageSize, type ImageSize } from './image-size.js';

/** Qwen-VL's image placeholder, which its chat template renders for an image part (SGLang's image_token for Qwen-VL). */
export const IMAGE_PLACEHOLDER = '<|vision_start|><|image_pad|><|vision_end|>';
/** The placeholder's token that stands for the image's tokens. */
export const IMAGE_PAD_TOKEN = '<|image_pad|>';
/** SGLang's pad values are the image's hash modulo 2^30. */
const PAD_VALUE_MASK = 0x3fffffff;

const DATA_URI = /^data:([^,]*?)(;base64)?,/;

/** The bytes of an image given as a data URI or bare base64; a URL the sim cannot fetch is a 400. */
function imageBytes(image: string, param: string): Buffer {
  const dataUri = DATA_URI.exec(image);
  if (dataUri === null && /^(https?|file):/i.test(image)) {
    throw new HttpError(400, `${param}: the sim reads images from data: URIs (base64) only and fetches nothing: ${image.slice(0, 100)}`, { param });
  }
  const payload = dataUri === null ? image : image.slice(dataUri[0].length);
  return dataUri !== null && dataUri[2] === undefined ? Buffer.from(decodeURIComponent(payload), 'latin1') : Buffer.from(payload, 'base64');
}

/** The size of one image; 400 for undecodable data or an aspect ratio SGLang refuses. */
function sizeOf(image: string, param: string): ImageSize {
  const size = imageSize(imageBytes(image, param));
  if (size === null || size.width <= 0 || size.height <= 0) {
    throw new HttpError(400, `${param}: cannot read the image (PNG, JPEG, GIF, WebP or BMP data expected)`, { param });
  }
  const ratio = Math.max(size.width, size.height) / Math.min(size.width, size.height);
  if (ratio > MAX_IMAGE_ASPECT_RATIO) {
    throw new HttpError(400, `absolute aspect ratio must be smaller than ${MAX_IMAGE_ASPECT_RATIO}, got ${ratio}`, { param });
  }
  return size;
}

function padValue(image: string): number {
  return createHash('sha256').update(image).digest().readUInt32BE(0) & PAD_VALUE_MASK;
}

/**
 * The prompt ids with the k-th image pad token replaced by the k-th image's tokens. Placeholders and
 * images pair in order, as SGLang pairs them: images without a placeholder add nothing.
 */
export function expandImages(ids: readonly number[], padId: number, images: readonly string[], vision: VisionConfig, param: string): number[] {
  const expanded: number[] = [];
  let next = 0;
  for (const id of ids) {
    if (id !== padId || next >= images.length) {
      expanded.push(id);
      continue;
    }
    const image = images[next++]!;
    const { width, height } = sizeOf(image, param);
    const value = padValue(image);
    for (let n = imageTokens(vision, width, height); n > 0; n--) expanded.push(value);
  }
  return expanded;
}
