import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { splitCommandLine } from './command-line.js';
import { UsageError } from './errors.js';

describe('splitCommandLine', () => {
  test('splits like a shell: quotes, escapes, continuations', () => {
    assert.deepEqual(splitCommandLine(`--a "b c" 'd e' f\\ g \\\n --h`), ['--a', 'b c', 'd e', 'f g', '--h']);
    assert.throws(() => splitCommandLine('--a "open'), UsageError);
  });
});
