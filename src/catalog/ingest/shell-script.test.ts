import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findCommands } from './shell-script.js';

const runs = (script: string): string[][][] => findCommands(script.split('\n')).map((c) => c.runs ?? [c.args]);

test('a two-node launch the script sizes itself reads as --tp 32 --nnodes 2, once per node', () => {
  const [launch] = runs(
    [
      'IPs=(10.0.0.1 10.0.0.2); nnodes=${#IPs[@]}; tp_size=$(expr 16 \\* ${nnodes})',
      'for i in "${!IPs[@]}"; do',
      '  if [[ "$(hostname -I)" == "${IPs[$i]}" ]]; then',
      '    python -m sglang.launch_server --tp $tp_size --nnodes $nnodes --node-rank $i --dist-init-addr ${IPs[0]}:5000 > log.$i 2>&1 &',
      '  fi',
      'done',
    ].join('\n'),
  );
  assert.deepEqual(launch, [
    ['--tp', '32', '--nnodes', '2', '--node-rank', '0', '--dist-init-addr', '10.0.0.1:5000'],
    ['--tp', '32', '--nnodes', '2', '--node-rank', '1', '--dist-init-addr', '10.0.0.1:5000'],
  ]);
});

test('a value only the runtime knows stays as written; assignments from it are unknown too', () => {
  const [launch] = runs(['HOST=`hostname -I`', 'RANK_PLUS=$((RANK + 1))', 'sglang serve --host $HOST --node-rank $RANK --x $RANK_PLUS --model-path ${MODEL_PATH:-/m}'].join('\n'));
  assert.deepEqual(launch, [['--host', '$HOST', '--node-rank', '$RANK', '--x', '$RANK_PLUS', '--model-path', '/m']]);
});

test('C-style and while loops, multi-line arrays and $(echo serve ...) wrappers', () => {
  const found = findCommands(
    [
      'NODES=(',
      '  a',
      '  b',
      ')',
      'for ((i = 0; i < ${#NODES[@]}; i++)); do python3 -m sglang.launch_server --node-rank $i --nnodes ${#NODES[@]}; done',
      'while true; do',
      '  args=$(echo serve --tp 8',
      '  )',
      'done',
      'python3 -m sglang.bench_serving --num-prompts 10 | tee bench.log',
    ].join('\n').split('\n'),
  );
  assert.deepEqual(
    found.map((c) => [c.kind, c.startLine, c.runs]),
    [
      ['launch', 4, [['--node-rank', '0', '--nnodes', '2'], ['--node-rank', '1', '--nnodes', '2']]],
      ['launch', 6, [['--tp', '8']]],
      ['bench', 9, [['--num-prompts', '10']]],
    ],
  );
});

test('each recipe is a script of its own: variables do not cross a reset line', () => {
  const lines = ['TP=8', 'sglang serve --tp $TP', '## next recipe', 'sglang serve --tp $TP && python -m sglang.bench_serving --num-prompts 1'];
  assert.deepEqual(findCommands(lines, { resets: new Set([2]) }).map((c) => c.args), [['--tp', '8'], ['--tp', '$TP'], ['--num-prompts', '1']]);
  assert.deepEqual(findCommands(lines, { skip: new Set([1]) }).map((c) => [c.kind, c.startLine]), [['launch', 3], ['bench', 3]]);
});

test('a node index found by a loop is the runtime\'s: the launch after it keeps --node-rank as written', () => {
  const [launch] = runs(
    [
      "IPs=('your prefill ip1' 'your prefill ip2')",
      'LOCAL_HOST=`hostname -I|awk -F " " \'{print$1}\'`',
      'for i in "${!IPs[@]}";',
      'do',
      '  if [ "$LOCAL_HOST" == "${IPs[$i]}" ]; then',
      '      VC_TASK_INDEX=$i',
      '      break',
      '  fi',
      'done',
      'nnodes=${#IPs[@]}',
      'tp_size=`expr 16 \\* ${nnodes}`',
      'python3 -m sglang.launch_server --tp $tp_size --nnodes $nnodes --node-rank $VC_TASK_INDEX --dist-init-addr ${IPs[0]}:10000',
    ].join('\n'),
  );
  assert.deepEqual(launch, [['--tp', '32', '--nnodes', '2', '--node-rank', '$VC_TASK_INDEX', '--dist-init-addr', 'your prefill ip1:10000']]);
});
