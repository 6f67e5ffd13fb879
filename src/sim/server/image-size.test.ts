import assert from 'node:assert/strict';
import { test } from 'node:test';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { imageSize } from './image-size.js';

function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  return PNG.sync.write(image);
}

function jpg(width: number, height: number): Buffer {
  return jpeg.encode({ data: Buffer.alloc(width * height * 4, 200), width, height }, 80).data;
}

test('reads the size a PNG or JPEG declares', () => {
  assert.deepEqual(imageSize(png(640, 360)), { width: 640, height: 360 });
  assert.deepEqual(imageSize(jpg(640, 360)), { width: 640, height: 360 });
  assert.deepEqual(imageSize(jpg(33, 1001)), { width: 33, height: 1001 });
});

test('reads GIF, WebP (lossy, lossless, extended) and BMP headers', () => {
  const gif = Buffer.from('GIF89a\x80\x02\x68\x01\x00\x00', 'latin1');
  assert.deepEqual(imageSize(gif), { width: 640, height: 360 });
  const riff = (chunk: string, body: number[]): Buffer => Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP' + chunk, 'latin1'), Buffer.alloc(4), Buffer.from(body)]);
  // VP8: frame tag, start code 9d 01 2a, then 14-bit width and height.
  assert.deepEqual(imageSize(riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0x68, 0x01])), { width: 640, height: 360 });
  // VP8L: signature 0x2f, then width-1 and height-1 in 14 bits each: 639 | 359 << 14.
  const bits = 639 | (359 << 14);
  assert.deepEqual(imageSize(riff('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff])), { width: 640, height: 360 });
  // VP8X: flags and reserved bytes, then 24-bit width-1 and height-1.
  assert.deepEqual(imageSize(riff('VP8X', [0, 0, 0, 0, 0x7f, 0x02, 0, 0x67, 0x01, 0])), { width: 640, height: 360 });
  const bmp = Buffer.alloc(26);
  bmp.write('BM', 0, 'latin1');
  bmp.writeInt32LE(640, 18);
  bmp.writeInt32LE(-360, 22);
  assert.deepEqual(imageSize(bmp), { width: 640, height: 360 });
});

test('anything else is no image', () => {
  assert.equal(imageSize(Buffer.from('hello world, not an image')), null);
  assert.equal(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9])), null);
});
