import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineSplitter } from './line-splitter.js';

test('splits at every byte boundary, including inside a multi-byte character', () => {
  const text = 'data: {"t":"héllo 😀"}\r\n\ndata: [DONE]\nlast';
  const bytes = Buffer.from(text, 'utf8');
  for (let cut = 1; cut <= bytes.length; cut++) {
    const lines: string[] = [];
    const splitter = new LineSplitter();
    for (let at = 0; at < bytes.length; at += cut) splitter.push(bytes, at, Math.min(at + cut, bytes.length), (l) => lines.push(l));
    splitter.flush((l) => lines.push(l));
    assert.deepEqual(lines, ['data: {"t":"héllo 😀"}\r', '', 'data: [DONE]', 'last'], `cut ${cut}`);
  }
});

test('a reused chunk buffer does not corrupt the carried tail', () => {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  const chunk = Buffer.from('abc');
  splitter.push(chunk, 0, chunk.length, (l) => lines.push(l));
  chunk.write('xyz');
  splitter.push(Buffer.from('d\n'), 0, 2, (l) => lines.push(l));
  assert.deepEqual(lines, ['abcd']);
});

test('reads only its range of a larger buffer', () => {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  const bytes = Buffer.from('XXab\ncdYY\n');
  splitter.push(bytes, 2, 7, (l) => lines.push(l));
  splitter.flush((l) => lines.push(l));
  assert.deepEqual(lines, ['ab', 'cd']);
});
