import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findExports, parseFlags } from './shell-command.js';
import { findCommands } from './shell-script.js';

test('finds launch, $(echo serve) wrappers, routers and bench commands across continuations', () => {
  const lines = [
    'export SGLANG_SET_CPU_AFFINITY=1',
    'python3 -m sglang.launch_server --model-path m \\',
    '  --tp 8   \\',
    '  --enable-dp-attention',
    'sglang_args=$(echo serve \\',
    '  --model-path $P --nnodes 2 \\',
    '  --served-model-name x',
    ')',
    'python -m sglang_router.launch_router --pd-disaggregation --prefill http://p:8000',
    'python3 -m sglang.bench_serving --backend sglang --num-prompts 10',
  ];
  const found = findCommands(lines);
  assert.deepEqual(
    found.map((c) => [c.kind, c.launcher, c.startLine, c.endLine]),
    [
      ['launch', 'python3 -m sglang.launch_server', 1, 4],
      ['launch', 'sglang serve', 4, 8],
      ['router', 'python -m sglang_router.launch_router', 8, 9],
      ['bench', 'python3 -m sglang.bench_serving', 9, 10],
    ],
  );
  assert.deepEqual(found[0]!.args, ['--model-path', 'm', '--tp', '8', '--enable-dp-attention']);
  assert.deepEqual(found[1]!.args, ['--model-path', '$P', '--nnodes', '2', '--served-model-name', 'x']);
  assert.deepEqual(findExports(lines), { SGLANG_SET_CPU_AFFINITY: '1' });
});

test('flags: values, =values, booleans, negative numbers, several values', () => {
  assert.deepEqual(parseFlags(['--tp', '8', '--x=1', '--flag', '--size', '-1', '--bs', '1', '2', 'pos']).flags, {
    '--tp': '8',
    '--x': '1',
    '--flag': true,
    '--size': '-1',
    '--bs': '1 2 pos',
  });
});
