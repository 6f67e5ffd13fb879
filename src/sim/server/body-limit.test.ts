import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IMAGE_BODY_LIMIT, MAX_BODY_BYTES, textBodyLimit } from './body-limit.js';

test('a text-only body may hold the longest prompt the context allows, each byte escaped, plus the other fields', () => {
  // 2,048 tokens × 512 bytes × 6 JSON bytes + 8 MiB.
  const limit = textBodyLimit({ contextLength: 2048, promptBytesPerToken: 512 });
  assert.equal(limit.bytes, 2048 * 512 * 6 + 8 * 1024 * 1024);
  assert.match(limit.fix, /context length \(2048 tokens\)/);
});

test("a context whose longest prompt needs more than the ceiling gets the ceiling", () => {
  assert.equal(textBodyLimit({ contextLength: 32768, promptBytesPerToken: 512 }).bytes, MAX_BODY_BYTES);
});

test('a body that may carry images gets the ceiling, whatever the context', () => {
  assert.equal(IMAGE_BODY_LIMIT.bytes, MAX_BODY_BYTES);
  assert.match(IMAGE_BODY_LIMIT.fix, /images/);
});
