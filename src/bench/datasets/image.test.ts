import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { NumpyRandomState, createBenchRngs } from '../../core/rng.js';
import { UsageError } from '../../core/errors.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { buildFromArgv } from '../../../test/helpers/datasets.js';
import { parseBenchArgs } from '../args/parse.js';
import { resolveRunConfig } from '../run-config.js';
import type { DatasetRow } from '../types.js';
import { buildDataset } from './index.js';
import { parseImageResolution, smartResize, visionTokensPerImage } from './vision-tokens.js';

const qwen = await loadTokenizer({ model: 'Qwen/Qwen2.5-VL-7B-Instruct' });

describe('vision tokens (Qwen2-VL rule)', () => {
  test('resolutions parse, height first for HxW', () => {
    assert.deepEqual(parseImageResolution('1080p'), { width: 1920, height: 1080 });
    assert.deepEqual(parseImageResolution('4k'), { width: 3840, height: 2160 });
    assert.deepEqual(parseImageResolution('1080x1920'), { width: 1920, height: 1080 });
    assert.throws(() => parseImageResolution('big'), UsageError);
    assert.throws(() => parseImageResolution('0x10'), UsageError);
  });

  test('smart resize and per-image counts', () => {
    assert.deepEqual(smartResize(1080, 1920), { height: 728, width: 1316 });
    assert.equal(visionTokensPerImage(1920, 1080), 26 * 47 + 2);
    assert.equal(visionTokensPerImage(640, 360), 13 * 23 + 2);
    assert.equal(visionTokensPerImage(20, 20), 2 * 2 + 2);
    // 70/28 = 2.5 rounds to even (Python round): 56, not 84.
    assert.deepEqual(smartResize(70, 70), { height: 56, width: 56 });
  });
});

describe('image dataset', () => {
  const base = ['--dataset-name', 'image', '--image-resolution', '24x32', '--random-input-len', '20', '--random-output-len', '8', '--num-prompts', '3'];

  test('random images from the numpy stream, token split and printed lines', async () => {
    const rngs = createBenchRngs(1);
    const { dataset, lines } = await buildFromArgv([...base, '--image-count', '2', '--backend', 'sglang-oai-chat'], qwen, rngs);
    assert.equal(dataset.rows.length, 3);
    const perImage = visionTokensPerImage(32, 24);
    for (const row of dataset.rows) {
      assert.equal(row.imageData!.length, 2);
      assert.equal(row.visionPromptLen, 2 * perImage);
      assert.equal(row.promptLen, row.textPromptLen + row.visionPromptLen);
      const templated = qwen.applyChatTemplate([{ role: 'user', content: row.prompt }], { addGenerationPrompt: true });
      assert.equal(row.textPromptLen, (await qwen.encode(templated)).length);
    }
    // The first image's pixels are the numpy draws after the two length arrays.
    const numpy = new NumpyRandomState(1);
    numpy.randint(1, 21, 3);
    numpy.randint(1, 9, 3);
    const uri = dataset.rows[0]!.imageData![0]!;
    assert.ok(uri.startsWith('data:image/jpeg;base64,'));
    const decoded = jpeg.decode(Buffer.from(uri.split(',')[1]!, 'base64'));
    assert.equal(decoded.width, 32);
    assert.equal(decoded.height, 24);
    const firstPixel = [0, 1, 2].map(() => Math.floor(numpy.randomSample() * 255));
    // JPEG is lossy: compare within a tolerance.
    firstPixel.forEach((value, c) => assert.ok(Math.abs(decoded.data[c]! - value) < 80, `channel ${c}`));
    // Six images of 24×32×3 doubles were drawn: the stream continues after them.
    const after = new NumpyRandomState(1);
    after.randint(1, 21, 3);
    after.randint(1, 9, 3);
    after.rand(6 * 24 * 32 * 3);
    assert.equal(rngs.numpy.randomSample(), after.randomSample());
    const totalInput = dataset.rows.reduce((s, r) => s + r.promptLen, 0);
    const totalOutput = dataset.rows.reduce((s, r) => s + r.outputLen, 0);
    assert.deepEqual(lines.slice(0, 5), [`#Input tokens: ${totalInput}`, `#Output tokens: ${totalOutput}`, '#Total images: 6', '#Images per request: 2 (fixed)', '']);
    assert.match(lines[5]!, /^Created 3 random jpeg images with average \d+ bytes per request$/);
  });

  test('blank PNG images, random counts, templated prompt for non-chat backends', async () => {
    const { dataset, lines } = await buildFromArgv(
      [...base, '--image-count', '3', '--random-image-count', '--image-format', 'png', '--image-content', 'blank'],
      qwen,
    );
    const counts = new NumpyRandomState(1).randint(1, 4, 3);
    assert.deepEqual(dataset.rows.map((r) => r.imageData!.length), counts);
    const png = PNG.sync.read(Buffer.from(dataset.rows[0]!.imageData![0]!.split(',')[1]!, 'base64'));
    assert.ok(png.data.every((v) => v === 255));
    const prompt = dataset.rows[0]!.prompt as string;
    assert.ok(prompt.startsWith(`<|im_start|>user\n${'<|vision_start|><|image_pad|><|vision_end|>'.repeat(counts[0]!)}`));
    const mean = (counts.reduce((a, b) => a + b) / 3).toFixed(2);
    assert.equal(lines[3], `#Images per request: min=${Math.min(...counts)}, max=${Math.max(...counts)}, mean=${mean}`);
    assert.match(lines[5]!, /^Created 3 blank png images/);
  });

  test('for a prediction: the same lengths and image-token counts, no images drawn or encoded, and a note instead', async () => {
    const argv = [...base, '--image-count', '2', '--random-image-count'];
    const full = await buildFromArgv(argv, qwen);
    const lines: string[] = [];
    const config = resolveRunConfig(parseBenchArgs(argv));
    const predicted = await buildDataset(config, qwen, (line) => lines.push(line), { forPrediction: true });
    const lengths = (rows: readonly DatasetRow[]) => rows.map((r) => [r.promptLen, r.textPromptLen, r.visionPromptLen, r.outputLen]);
    assert.deepEqual(lengths(predicted.rows), lengths(full.dataset.rows));
    assert.ok(predicted.rows.every((r) => r.imageData === null));
    assert.deepEqual(lines.slice(0, 5), full.lines.slice(0, 5));
    assert.match(lines[5]!, /^note: the \d+ random jpeg images were counted, not drawn or encoded .*without the pixel draws before them$/);
  });

  test('bad options are usage errors; mmmu explains it needs the Hub', async () => {
    await assert.rejects(buildFromArgv([...base, '--image-format', 'gif'], qwen), UsageError);
    await assert.rejects(buildFromArgv([...base, '--image-resolution', 'huge'], qwen), UsageError);
    await assert.rejects(buildFromArgv(['--dataset-name', 'mmmu'], qwen), /--dataset-name image/);
  });
});
