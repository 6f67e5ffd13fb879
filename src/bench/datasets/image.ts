/**
 * The `image` dataset (spec §3.8): random-token text plus synthetic images per request.
 *
 * Token accounting (documented rule, see vision-tokens.ts): text_prompt_len = tokens of the chat
 * template over the text alone (plain encode without a template); each image adds the Qwen2-VL
 * count for its resolution; prompt_len = text + vision.
 *
 * Prompt sent (Q15 fixed as upstream later did): chat backends get the raw text (the server
 * templates it); every other backend gets the templated prompt with one
 * `<|vision_start|><|image_pad|><|vision_end|>` placeholder per image (`<image>` + text without a
 * template).
 */
import { UsageError } from '../../core/errors.js';
import { formatFixed } from '../../core/pyformat.js';
import type { Dataset, DatasetRow } from '../types.js';
import type { DatasetContext } from './context.js';
import { parseImageFormat, synthesizeImageDataUri } from './image-synth.js';
import { computeRandomLens } from './lengths.js';
import { printTokenTotals } from './rows.js';
import { parseImageResolution, visionTokensPerImage } from './vision-tokens.js';

const IMAGE_PLACEHOLDER = '<|vision_start|><|image_pad|><|vision_end|>';
const IMAGE_PAD_TOKEN = '<|image_pad|>';

/** Per-request image counts: uniform in [1, --image-count] with --random-image-count, else fixed. */
function imageCounts(ctx: DatasetContext): number[] {
  const { count, randomCount: random } = ctx.options.image;
  const n = ctx.options.numPrompts;
  if (count < 1) throw new UsageError(`--image-count must be at least 1, got ${count}`);
  return random ? ctx.rngs.numpy.randint(1, count + 1, n) : new Array<number>(n).fill(count);
}

function templated(ctx: DatasetContext, content: string): string | null {
  return ctx.tokenizer.hasChatTemplate
    ? ctx.tokenizer.applyChatTemplate([{ role: 'user', content }], { addGenerationPrompt: true })
    : null;
}

/** `--dataset-name image`. */
export async function buildImageDataset(ctx: DatasetContext): Promise<Dataset> {
  const { options, rngs, tokenizer, print } = ctx;
  const { image, random } = options;
  if (options.tokenizePrompt) throw new UsageError('--tokenize-prompt does not work with --dataset-name image; drop one of them');
  const { width, height } = parseImageResolution(image.resolution);
  const format = parseImageFormat(image.format);
  const counts = imageCounts(ctx);
  const totalImages = counts.reduce((a, b) => a + b, 0);
  if (width * height >= 1920 * 1080 && totalImages >= 100) {
    print(`UserWarning: High resolution (${width}x${height}) with ${totalImages} total images may take a long time. Consider reducing resolution or image count.`);
  }
  const names = (length: string) => ({ length, ratio: '--random-range-ratio' });
  const inputLens = computeRandomLens(rngs.numpy, random.inputLen, random.rangeRatio, options.numPrompts, names('--random-input-len'));
  const outputLens = computeRandomLens(rngs.numpy, random.outputLen, random.rangeRatio, options.numPrompts, names('--random-output-len'));

  const padId = tokenizer.tokenToId(IMAGE_PAD_TOKEN);
  const textVocab = tokenizer.vocabIds().filter((id) => id !== padId);
  const texts = await tokenizer.decodeBatch(inputLens.map((k) => rngs.python.choices(textVocab, k)));
  const textOnlyPrompts = texts.map((text) => templated(ctx, text) ?? text);
  const textPromptLens = (await tokenizer.encodeBatch(textOnlyPrompts)).map((ids) => ids.length);
  const perImage = visionTokensPerImage(width, height);
  const rawText = ctx.backend.endsWith('-chat');

  const rows: DatasetRow[] = [];
  let totalBytes = 0;
  for (let i = 0; i < counts.length; i++) {
    const text = texts[i]!;
    const visionLen = perImage * counts[i]!;
    const row = { promptLen: textPromptLens[i]! + visionLen, outputLen: outputLens[i]!, textPromptLen: textPromptLens[i]!, visionPromptLen: visionLen, extraRequestBody: {} };
    if (ctx.forPrediction) {
      rows.push({ ...row, prompt: text, imageData: null });
      continue;
    }
    const images: string[] = [];
    for (let k = 0; k < counts[i]!; k++) {
      const uri = synthesizeImageDataUri(rngs.numpy, width, height, image.content, format);
      totalBytes += Buffer.byteLength(uri);
      images.push(uri);
    }
    const promptStr = templated(ctx, IMAGE_PLACEHOLDER.repeat(images.length) + text) ?? `<image>${text}`;
    rows.push({ ...row, prompt: rawText ? text : promptStr, imageData: images });
  }

  printTokenTotals(print, rows.map((r) => r.promptLen), rows.map((r) => r.outputLen));
  print(`#Total images: ${totalImages}`);
  if (image.randomCount && counts.length > 0) {
    const mean = formatFixed(totalImages / counts.length, 2);
    const min = counts.reduce((a, b) => Math.min(a, b));
    const max = counts.reduce((a, b) => Math.max(a, b));
    print(`#Images per request: min=${min}, max=${max}, mean=${mean}`);
  } else {
    print(`#Images per request: ${image.count} (fixed)`);
  }
  print('');
  if (ctx.forPrediction) {
    // Random pixels are numpy draws: bench's later draws (Poisson arrivals) start after them.
    const arrivals = image.content === 'blank' ? '' : '; arrivals at a finite --request-rate are drawn without the pixel draws before them';
    print(`note: the ${totalImages} ${image.content} ${image.format} images were counted, not drawn or encoded (a prediction reads only their tokens)${arrivals}`);
  } else {
    const average = counts.length > 0 ? Math.floor(totalBytes / counts.length) : 0;
    print(`Created ${rows.length} ${image.content} ${image.format} images with average ${average} bytes per request`);
  }
  return { rows, multiTurn: false };
}
