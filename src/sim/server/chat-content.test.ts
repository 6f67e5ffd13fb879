import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../../core/http-error.js';
import { templateInput } from './chat-content.js';

const IMAGE = 'data:image/png;base64,AAAA';
const parts = [
  { type: 'image_url', image_url: { url: IMAGE } },
  { type: 'text', text: 'Describe' },
  { type: 'text', text: 'this.' },
];

test("a text-only model's template gets the text parts joined by spaces; its images are dropped, as SGLang drops them", () => {
  const input = templateInput([{ role: 'system', content: null }, { role: 'user', content: parts }], false);
  assert.deepEqual(input.messages, [{ role: 'system', content: '' }, { role: 'user', content: 'Describe this.' }]);
  assert.deepEqual(input.images, []);
});

test("a vision model's template gets each part in order, an image as its placeholder", () => {
  const input = templateInput([{ role: 'user', content: parts }, { role: 'assistant', content: 'ok' }], true);
  assert.deepEqual(input.messages[0], { role: 'user', content: '<|vision_start|><|image_pad|><|vision_end|>Describethis.' });
  assert.equal(input.messages[1]!.content, 'ok');
  assert.deepEqual(input.images, [IMAGE]);
});

test('a vision model refuses media it cannot count; an image part without a URL is a 400', () => {
  const video = [{ role: 'user', content: [{ type: 'video_url', video_url: { url: 'x' } }] }];
  assert.throws(() => templateInput(video, true), (e: unknown) => e instanceof HttpError && e.status === 400 && /video_url/.test(e.message));
  assert.deepEqual(templateInput(video, false).messages[0]!.content, '');
  assert.throws(() => templateInput([{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }], true), HttpError);
});
