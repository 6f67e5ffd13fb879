import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { HttpError } from '../../core/http-error.js';
import { getModel } from '../../deployment/model/bundled-models.js';
import { expandImages } from './image-input.js';

const PAD = 151655;
const dataUri = (width: number, height: number, fill = 0): string => {
  const image = new PNG({ width, height });
  image.data.fill(fill);
  return `data:image/png;base64,${PNG.sync.write(image).toString('base64')}`;
};
const qwen25 = getModel('qwen2.5-vl-7b')!.vision!;
const qwen3 = getModel('qwen3-vl-8b')!.vision!;

test("each image's pad token becomes the image's tokens: 640×360 is 299 for Qwen2.5-VL, 220 for Qwen3-VL", () => {
  const image = dataUri(640, 360);
  const ids = [1, 151652, PAD, 151653, 2];
  const expanded = expandImages(ids, PAD, [image], qwen25, 'messages');
  assert.equal(expanded.length, ids.length - 1 + 299);
  assert.deepEqual([expanded[0], expanded[1], expanded.at(-2), expanded.at(-1)], [1, 151652, 151653, 2]);
  assert.equal(new Set(expanded.slice(2, 2 + 299)).size, 1);
  assert.equal(expandImages(ids, PAD, [image], qwen3, 'messages').length, ids.length - 1 + 220);
  // Bare base64, as SGLang also accepts.
  assert.equal(expandImages(ids, PAD, [image.slice(image.indexOf(',') + 1)], qwen25, 'messages').length, ids.length - 1 + 299);
});

test('equal images pad alike and different ones do not (prefix caching); extra images add nothing', () => {
  const a = dataUri(100, 100, 0);
  const b = dataUri(100, 100, 255);
  const withA = expandImages([PAD], PAD, [a], qwen25, 'm');
  assert.deepEqual(expandImages([PAD], PAD, [a], qwen25, 'm'), withA);
  assert.notEqual(expandImages([PAD], PAD, [b], qwen25, 'm')[0], withA[0]);
  assert.equal(expandImages([7, PAD], PAD, [a, b], qwen25, 'm').length, 1 + withA.length);
  assert.deepEqual(expandImages([7, 8], PAD, [a], qwen25, 'm'), [7, 8]);
});

test('a URL the sim cannot fetch, undecodable data and an extreme aspect ratio are 400s naming the field', () => {
  const refused = (image: string, message: RegExp) =>
    assert.throws(() => expandImages([PAD], PAD, [image], qwen25, 'image_data'), (e: unknown) => e instanceof HttpError && e.status === 400 && message.test(e.message));
  refused('https://example.com/cat.png', /^image_data: the sim reads images from data: URIs/);
  refused('data:image/png;base64,bm90IGFuIGltYWdl', /cannot read the image/);
  refused(dataUri(402, 2), /^absolute aspect ratio must be smaller than 200, got 201$/);
});
