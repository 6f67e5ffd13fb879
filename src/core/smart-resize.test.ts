import assert from 'node:assert/strict';
import { test } from 'node:test';
import { smartResize } from './smart-resize.js';

const rule = { factor: 28, minPixels: 56 * 56, maxPixels: 28 * 28 * 1280 };

test('smart_resize: rounds each side to the factor, scales down past the maximum area and up below the minimum', () => {
  assert.deepEqual(smartResize(360, 640, rule), { height: 364, width: 644 });
  assert.deepEqual(smartResize(1080, 1920, rule), { height: 728, width: 1316 });
  assert.deepEqual(smartResize(70, 70, rule), { height: 56, width: 56 });
});

test("rounding is Python's: 42 / 28 = 1.5 rounds to the even 2, 70 / 28 = 2.5 to 2", () => {
  assert.deepEqual(smartResize(42, 70, { ...rule, minPixels: 1 }), { height: 56, width: 56 });
});
