import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readShellWords, splitCommandLine } from './command-line.js';
import { UsageError } from './errors.js';

describe('splitCommandLine', () => {
  test('splits like a shell: quotes, escapes, continuations', () => {
    assert.deepEqual(splitCommandLine(`--a "b c" 'd e' f\\ g \\\n --h`), ['--a', 'b c', 'd e', 'f g', '--h']);
    assert.throws(() => splitCommandLine('--a "open'), UsageError);
  });
});

describe('readShellWords', () => {
  test('a # starting a word begins a comment; inside a word or quotes it does not', () => {
    assert.deepEqual(readShellWords(`--host "0.0.0.0" --name 'a b' x\\ y # comment`).words, ['--host', '0.0.0.0', '--name', 'a b', 'x y']);
    assert.deepEqual(readShellWords(`--tag a#b "c # d"`).words, ['--tag', 'a#b', 'c # d']);
  });

  test('escapes inside double quotes are the shell’s, and an open quote is reported, not thrown', () => {
    assert.deepEqual(readShellWords(`"say \\"hi\\" \\n"`).words, ['say "hi" \\n']);
    assert.deepEqual(readShellWords(`--a 'open rest`), { words: ['--a', 'open rest'], openQuote: "'" });
  });
});
