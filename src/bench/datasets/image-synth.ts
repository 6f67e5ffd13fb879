/**
 * Synthetic request images (spec §3.8): white (`blank`) or noise (`random`, the pixels of
 * `uint8(numpy.random.rand(H, W, 3) · 255)` from the run's numpy stream, so later draws stay in
 * step with bench_serving), encoded locally as JPEG (quality 85) or PNG and wrapped in a data URI.
 * Encoders differ from PIL's, so byte sizes differ slightly; pixels and RNG use do not.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { UsageError } from '../../core/errors.js';
import type { NumpyRandomState } from '../../core/rng.js';

export type ImageFormat = 'jpeg' | 'png';

const JPEG_QUALITY = 85;

/** Blank images draw no randomness and are all alike: encode each size once (JPEG encoding dominates the cost). */
const blankImages = new Map<string, string>();

/** `--image-format` as PIL accepts it (case-insensitive `jpeg`/`jpg`/`png`). */
export function parseImageFormat(value: string): ImageFormat {
  const lower = value.toLowerCase();
  if (lower === 'jpeg' || lower === 'jpg') return 'jpeg';
  if (lower === 'png') return 'png';
  throw new UsageError(`unsupported --image-format ${value}: choose jpeg or png`);
}

/** RGB bytes, row-major, drawing H·W·3 doubles from `numpy` for random content. */
function pixels(numpy: NumpyRandomState, width: number, height: number, blank: boolean): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  if (blank) rgb.fill(255);
  else for (let i = 0; i < rgb.length; i++) rgb[i] = Math.floor(numpy.randomSample() * 255);
  return rgb;
}

function encodeJpeg(rgb: Uint8Array, width: number, height: number): Buffer {
  const rgba = Buffer.alloc(width * height * 4);
  for (let p = 0, q = 0; p < rgb.length; p += 3, q += 4) {
    rgba[q] = rgb[p]!;
    rgba[q + 1] = rgb[p + 1]!;
    rgba[q + 2] = rgb[p + 2]!;
    rgba[q + 3] = 255;
  }
  return jpeg.encode({ data: rgba, width, height }, JPEG_QUALITY).data;
}

function encodePng(rgb: Uint8Array, width: number, height: number): Buffer {
  const png = new PNG({ width, height, colorType: 2, inputColorType: 2, inputHasAlpha: false });
  png.data = Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength);
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false });
}

/**
 * One image as `data:image/<format>;base64,...`. `content` other than `blank` means random noise,
 * as in bench_serving.
 */
export function synthesizeImageDataUri(
  numpy: NumpyRandomState,
  width: number,
  height: number,
  content: string,
  format: ImageFormat,
): string {
  const blank = content === 'blank';
  const key = `${width}x${height}.${format}`;
  const cached = blank ? blankImages.get(key) : undefined;
  if (cached !== undefined) return cached;
  const rgb = pixels(numpy, width, height, blank);
  const bytes = format === 'jpeg' ? encodeJpeg(rgb, width, height) : encodePng(rgb, width, height);
  const uri = `data:image/${format};base64,${bytes.toString('base64')}`;
  if (blank) blankImages.set(key, uri);
  return uri;
}
