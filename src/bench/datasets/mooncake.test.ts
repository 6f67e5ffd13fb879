import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, rmSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { bundledTokenizerDir, loadTokenizer } from '../../tokenizer/index.js';
import { hashIdText, mooncakeReplayLines } from './mooncake.js';
import { buildFromArgv, scratchFolder } from '../../../test/helpers/datasets.js';

const qwen = await loadTokenizer({ model: 'Qwen/Qwen3-8B' });
const scratch = scratchFolder('servebench-mooncake-');
after(() => rmSync(scratch.dir, { recursive: true, force: true }));

const trace = [
  { timestamp: 5000, input_length: 999, output_length: 3, hash_ids: [7, 8] },
  { timestamp: 1000, input_length: 999, output_length: 4, hash_ids: [1] },
  { timestamp: 2500, input_length: 999, hash_ids: [] },
  { timestamp: 0, input_length: 999, output_length: 9, hash_ids: [2] }, // beyond --num-prompts 3
];
const path = scratch.write('trace.jsonl', `${trace.map((r) => JSON.stringify(r)).join('\n')}\n`);

describe('hashIdText', () => {
  test('ids glued to their his, closing text appended', () => {
    assert.equal(hashIdText([3, 4], 2, 'End.'), '3hi hi4hi hiEnd.');
    assert.equal(hashIdText([], 5, 'End.'), 'End.');
  });
});

describe('mooncake dataset', () => {
  test('truncates, sorts by timestamp, scales time, emits every round with its history', async () => {
    const argv = ['--dataset-name', 'mooncake', '--dataset-path', path, '--num-prompts', '3', '--mooncake-num-rounds', '2', '--mooncake-slowdown-factor', '2'];
    const { dataset, lines } = await buildFromArgv(argv, qwen);
    assert.equal(dataset.rows.length, 6);
    assert.deepEqual(dataset.rows.map((r) => r.timestamp), [0, 0, 3, 3, 8, 8]);
    assert.deepEqual(dataset.rows.map((r) => r.outputLen), [4, 4, 256, 256, 3, 3]);
    const base = hashIdText([1], 128, 'Tell me a story based on this context.');
    const round1 = [{ role: 'user', content: `Round 1: ${base}` }];
    const round2 = [...round1, { role: 'assistant', content: 'story story story story' }, { role: 'user', content: `Round 2: ${base}` }];
    assert.equal(dataset.rows[0]!.prompt, qwen.applyChatTemplate(round1, { addGenerationPrompt: true }));
    assert.equal(dataset.rows[1]!.prompt, qwen.applyChatTemplate(round2, { addGenerationPrompt: true }));
    for (const row of dataset.rows) assert.equal(row.promptLen, (await qwen.encode(row.prompt as string)).length);
    const warmup = dataset.warmupRow!;
    assert.equal(warmup.prompt, hashIdText([7, 8], 512, 'Can you tell me a detailed story in 1000 words?'));
    assert.equal(warmup.outputLen, 3);
    assert.deepEqual(lines, mooncakeReplayLines(3, 2, 2));
    const chat = await buildFromArgv([...argv, '--backend', 'vllm-chat'], qwen);
    assert.deepEqual(chat.dataset.rows[1]!.prompt, round2);
    assert.deepEqual(chat.dataset.rows.map((r) => r.promptLen), dataset.rows.map((r) => r.promptLen));
    assert.deepEqual(lines, [
      'Using time-based Mooncake request scheduler, ignoring --request-rate.',
      'Starting Mooncake trace replay. Sessions: 3, Rounds per session: 2. Slowdown factor: 2.0',
    ]);
  });

  test('without a chat template the history is role: content lines', async () => {
    const folder = scratchFolder('servebench-mooncake-tok-');
    copyFileSync(`${bundledTokenizerDir('qwen')}/tokenizer.json`, `${folder.dir}/tokenizer.json`);
    const bare = await loadTokenizer({ tokenizer: folder.dir });
    const { dataset } = await buildFromArgv(['--dataset-name', 'mooncake', '--dataset-path', path, '--num-prompts', '1'], bare);
    assert.equal(dataset.rows[0]!.prompt, `user: Round 1: ${hashIdText([7, 8], 128, 'Tell me a story based on this context.')}`);
    rmSync(folder.dir, { recursive: true, force: true });
  });

  test('missing trace or bad record: one line naming the file', async () => {
    await assert.rejects(buildFromArgv(['--dataset-name', 'mooncake', '--dataset-path', `${scratch.dir}/none.jsonl`], qwen), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /Mooncake trace not found at .*none\.jsonl: download https:\/\/raw\.githubusercontent\.com/);
      return true;
    });
    const bad = scratch.write('bad.jsonl', '{"timestamp": 1}\n{"hash_ids": [1]}\n');
    await assert.rejects(buildFromArgv(['--dataset-name', 'mooncake', '--dataset-path', bad], qwen), /bad\.jsonl line 2: expected an object with a numeric "timestamp"/);
  });
});
