import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arithmetic, expandWord, rawWords, type ShellVariables } from './shell-expansion.js';

const vars = (): ShellVariables => new Map<string, string | string[]>([['IPs', ['10.0.0.1', '10.0.0.2']], ['nnodes', '2'], ['i', '1'], ['EMPTY', '']]);

test('raw words keep quotes, substitutions and array assignments whole; a comment ends them', () => {
  assert.deepEqual(rawWords(`A=(x 'y z') tp=$(expr 16 \\* \${n}) "a b" \`hostname -I\` # note`), [
    "A=(x 'y z')", 'tp=$(expr 16 \\* ${n})', '"a b"', '`hostname -I`',
  ]);
});

test('what the script determines is expanded: lengths, indices, elements, arithmetic, expr, defaults', () => {
  const v = vars();
  const words = (raw: string): string[] => expandWord(raw, v).words;
  assert.deepEqual(words('${#IPs[@]}'), ['2']);
  assert.deepEqual(words('"${!IPs[@]}"'), ['0', '1'], 'an array expansion gives one word per element');
  assert.deepEqual(words('${IPs[@]}'), ['10.0.0.1', '10.0.0.2']);
  assert.deepEqual(words('${IPs[$i]}:5000'), ['10.0.0.2:5000']);
  assert.deepEqual(words('$IPs'), ['10.0.0.1'], 'an array by name is its first element');
  assert.deepEqual(words('$((8998+$i))'), ['8999']);
  assert.deepEqual(words('$(expr 16 \\* ${nnodes})'), ['32']);
  assert.deepEqual(words('"$(echo serve --tp 8)"'), ['serve --tp 8']);
  assert.deepEqual(words('${MODEL:-/models/m}'), ['/models/m']);
  assert.deepEqual(words('${EMPTY:-x}'), ['x']);
  assert.deepEqual(words("'$nnodes'"), ['$nnodes'], 'single quotes do not expand');
});

test('what only the runtime knows stays as written and is reported', () => {
  const v = vars();
  assert.deepEqual(expandWord('${MODEL_PATH}', v), { words: ['${MODEL_PATH}'], unknown: ['${MODEL_PATH}'] });
  assert.deepEqual(expandWord('--node-rank=$1', v), { words: ['--node-rank=$1'], unknown: ['$1'] });
  assert.deepEqual(expandWord('`hostname -I`', v).unknown, ['`hostname -I`']);
  assert.deepEqual(expandWord('$(( RANK * 2 ))', v).unknown, ['$(( RANK * 2 ))']);
});

test('integer arithmetic with precedence, comparisons and variables; anything else is null', () => {
  const v = vars();
  assert.equal(arithmetic('(1 + 2) * 3 - 4 / 2 % 3', v), 7);
  assert.equal(arithmetic('nnodes * 8', v), 16);
  assert.equal(arithmetic('i < 2 && nnodes == 2', v), 1);
  assert.equal(arithmetic('-i + 1', v), 0);
  assert.equal(arithmetic('RANK + 1', v), null);
  assert.equal(arithmetic('2 ** 3', v), null);
});
