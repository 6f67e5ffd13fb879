import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capWarnings, MAX_WARNING_CHARS, MAX_WARNINGS } from './warnings.js';

test('short warnings pass unchanged', () => {
  assert.deepEqual(capWarnings(['a', 'b']), ['a', 'b']);
});

test('a long warning is cut to the limit and says how much was left out; capping twice changes nothing', () => {
  const [cut] = capWarnings([`lines ${'1, '.repeat(10_000_000)}`]);
  assert.ok(cut!.length <= MAX_WARNING_CHARS, String(cut!.length));
  assert.match(cut!, /^lines 1, 1, .*… \(\d+ more characters\)$/);
  assert.deepEqual(capWarnings([cut!]), [cut]);
});

test('a cut never splits a surrogate pair', () => {
  const [cut] = capWarnings(['😀'.repeat(MAX_WARNING_CHARS)]);
  // A lone surrogate would show as U+FFFD after a round trip through UTF-8.
  assert.equal(Buffer.from(cut!, 'utf8').toString('utf8'), cut);
});

test('many warnings: the first ones are kept, the last kept line counts the rest', () => {
  const warnings = Array.from({ length: 1000 }, (_, i) => `warning ${i}`);
  const capped = capWarnings(warnings);
  assert.equal(capped.length, MAX_WARNINGS);
  assert.equal(capped[0], 'warning 0');
  assert.equal(capped.at(-1), `${1000 - MAX_WARNINGS + 1} more warnings not kept`);
  assert.deepEqual(capWarnings(capped), capped);
});
