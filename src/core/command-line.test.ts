import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closingBracketIndex, closingQuoteIndex, readShellWords, splitCommandLine } from './command-line.js';
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

describe('readShellWords as written', () => {
  const asWritten = (line: string) => readShellWords(line, { keep: 'as-written' });

  test('quotes, escapes, substitutions, parameters and array assignments stay whole and as spelt; a comment still ends the line', () => {
    assert.deepEqual(asWritten(`A=(x 'y z') --m "\${M}" $(expr 16 \\* \${n}) \${A:-a b} \`hostname -I\` x\\ y # note`).words, [
      "A=(x 'y z')", '--m', '"${M}"', '$(expr 16 \\* ${n})', '${A:-a b}', '`hostname -I`', 'x\\ y',
    ]);
  });

  test('an open quote is reported and, like an unclosed substitution, runs to the end', () => {
    assert.deepEqual(asWritten(`--a 'open rest`), { words: ['--a', "'open rest"], openQuote: "'" });
    assert.deepEqual(asWritten('echo $(date +%s'), { words: ['echo', '$(date +%s'], openQuote: null });
  });
});

describe('closing quote and bracket', () => {
  test('a backslash escapes only inside double quotes; -1 when nothing closes', () => {
    assert.equal(closingQuoteIndex(`"a \\" b" c`, 0), 7);
    assert.equal(closingQuoteIndex(`'a \\' b'`, 0), 4);
    assert.equal(closingQuoteIndex(`"open`, 0), -1);
  });

  test('brackets nest, and a closer inside single quotes or escaped does not count', () => {
    assert.equal(closingBracketIndex(`$(a $(b) ')' \\) c) d`, 1), 17);
    assert.equal(closingBracketIndex('${a', 1), -1);
  });
});
