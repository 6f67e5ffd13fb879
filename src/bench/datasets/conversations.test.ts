import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { PythonRandom } from '../../core/rng.js';
import { UsageError, UserError } from '../../core/errors.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { buildFromArgv, scratchFolder } from '../../../test/helpers/datasets.js';

const qwen = await loadTokenizer({ model: 'Qwen/Qwen3-8B' });
const deepseek = await loadTokenizer({ model: 'deepseek-ai/DeepSeek-V3' });
const scratch = scratchFolder('servebench-conv-');
after(() => rmSync(scratch.dir, { recursive: true, force: true }));

const conversations = [
  ['Tell me about the history of the bicycle in Europe.', 'Bicycles appeared in the nineteenth century and spread quickly.'],
  ['Hi', 'Hello there, how can I help?'], // prompt of one token: filtered out
  ['Summarise the plot of a heist movie in three sentences.', 'A crew plans. Things go wrong. They escape.'],
  ['Write a haiku about autumn leaves falling slowly.', 'Red leaves drift and fall, quiet wind.'],
  ['Explain recursion to a five year old please.', 'ok'],
];
const shareGpt = scratch.write(
  'sharegpt.json',
  JSON.stringify(
    conversations.map(([q, a]) => ({ conversations: [{ from: 'human', value: q }, { from: 'gpt', value: a }] })).concat([
      { conversations: [{ from: 'human', value: 'lonely turn' }] },
    ]),
  ),
);

describe('sharegpt dataset', () => {
  test('shuffles with the Python stream and keeps rows passing the length filters', async () => {
    const { dataset, lines } = await buildFromArgv(['--dataset-name', 'sharegpt', '--dataset-path', shareGpt, '--num-prompts', '10'], qwen);
    const order = new PythonRandom(1).shuffle(conversations.slice());
    const kept = order.filter(([q]) => q !== 'Hi');
    const expected = await Promise.all(
      kept.map(async ([q, a]) => ({ prompt: q, promptLen: (await qwen.encode(q!)).length, outputLen: (await qwen.encode(a!)).length })),
    );
    const withShortOutputs = expected.filter((row) => row.outputLen >= 2);
    assert.deepEqual(
      dataset.rows.map((r) => ({ prompt: r.prompt, promptLen: r.promptLen, outputLen: r.outputLen })),
      withShortOutputs,
    );
    assert.deepEqual(lines, [
      `#Input tokens: ${withShortOutputs.reduce((s, r) => s + r.promptLen, 0)}`,
      `#Output tokens: ${withShortOutputs.reduce((s, r) => s + r.outputLen, 0)}`,
    ]);
  });

  test('fixed output length, context cap, suffix and chat template without BOS', async () => {
    const argv = ['--dataset-name', 'sharegpt', '--dataset-path', shareGpt, '--num-prompts', '2', '--sharegpt-output-len', '100'];
    const fixed = await buildFromArgv(argv, qwen);
    assert.equal(fixed.dataset.rows.length, 2);
    assert.ok(fixed.dataset.rows.every((r) => r.outputLen === 100));
    const capped = await buildFromArgv([...argv, '--sharegpt-context-len', '105'], qwen);
    assert.equal(capped.dataset.rows.length, 0);
    assert.deepEqual(capped.lines, ['#Input tokens: 0.0', '#Output tokens: 0.0']);
    const templated = await buildFromArgv([...argv, '--apply-chat-template', '--prompt-suffix', ' Be brief.'], deepseek);
    const prompt = templated.dataset.rows[0]!.prompt as string;
    assert.ok(!prompt.includes('<｜begin▁of▁sentence｜>'));
    assert.ok(prompt.startsWith('<｜User｜>') && prompt.endsWith(' Be brief.Assistant:<｜Assistant｜>'));
  });

  test('errors: no path, too small output, malformed JSON with its line', async () => {
    await assert.rejects(buildFromArgv(['--dataset-name', 'sharegpt'], qwen), UsageError);
    await assert.rejects(buildFromArgv(['--dataset-name', 'sharegpt', '--dataset-path', shareGpt, '--sharegpt-output-len', '3'], qwen), UsageError);
    const broken = scratch.write('broken.json', '[\n {"conversations": []},\n {"conversations": [}\n]');
    await assert.rejects(buildFromArgv(['--dataset-name', 'sharegpt', '--dataset-path', broken], qwen), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /broken\.json line 3: invalid JSON/);
      return true;
    });
  });
});

describe('custom dataset', () => {
  test('JSONL with content or value turns; blank lines skipped', async () => {
    const path = scratch.write(
      'custom.jsonl',
      [
        JSON.stringify({ conversations: [{ role: 'user', content: 'What is the capital of France today?' }, { role: 'assistant', content: 'Paris is the capital.' }] }),
        '',
        JSON.stringify({ conversation: [{ value: 'Name three primary colours for painting.' }, { value: 'Red, yellow and blue.' }] }),
      ].join('\n'),
    );
    const { dataset } = await buildFromArgv(['--dataset-name', 'custom', '--dataset-path', path, '--num-prompts', '5'], qwen);
    assert.deepEqual(
      dataset.rows.map((r) => r.prompt).sort(),
      ['Name three primary colours for painting.', 'What is the capital of France today?'],
    );
  });

  test('errors: missing file, malformed line, --tokenize-prompt', async () => {
    await assert.rejects(buildFromArgv(['--dataset-name', 'custom', '--dataset-path', `${scratch.dir}/none.jsonl`], qwen), /Dataset not found at/);
    const bad = scratch.write('bad.jsonl', `${JSON.stringify({ conversations: [] })}\n\n{oops\n`);
    await assert.rejects(buildFromArgv(['--dataset-name', 'custom', '--dataset-path', bad], qwen), /bad\.jsonl line 3: invalid JSON/);
    await assert.rejects(buildFromArgv(['--dataset-name', 'custom', '--dataset-path', bad, '--tokenize-prompt'], qwen), UsageError);
  });
});
