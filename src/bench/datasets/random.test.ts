import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { NumpyRandomState, PythonRandom, createBenchRngs } from '../../core/rng.js';
import { UserError } from '../../core/errors.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { fallbackPromptTexts } from './fallback-corpus.js';
import { buildFromArgv, scratchFolder } from '../../../test/helpers/datasets.js';

const qwen = await loadTokenizer({ model: 'Qwen/Qwen2.5-0.5B' });
const deepseek = await loadTokenizer({ model: 'deepseek-ai/DeepSeek-V3.2' });
const scratch = scratchFolder('servebench-random-');
after(() => rmSync(scratch.dir, { recursive: true, force: true }));

describe('random dataset', () => {
  test('seed 1, 64/16, r=0, 200 prompts: the reference log totals', async () => {
    const argv = ['--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '200'];
    const { dataset, lines } = await buildFromArgv(argv, qwen);
    assert.deepEqual(lines, ['#Input tokens: 5661', '#Output tokens: 1653']);
    assert.equal(dataset.rows.length, 200);
    assert.equal(dataset.multiTurn, false);
    assert.equal(dataset.rows.reduce((s, r) => s + r.promptLen, 0), 5661);
    for (const row of dataset.rows) assert.equal(typeof row.prompt, 'string');
  });

  test('1024/1024, 10 prompts: 6101 in / 4220 out; a BOS tokenizer loses one token per prompt', async () => {
    const argv = ['--dataset-name', 'random', '--random-input-len', '1024', '--random-output-len', '1024', '--num-prompts', '10'];
    const plain = await buildFromArgv(argv, qwen);
    assert.deepEqual(plain.lines, ['#Input tokens: 6101', '#Output tokens: 4220']);
    const withBos = await buildFromArgv(argv, deepseek);
    assert.deepEqual(withBos.lines, ['#Input tokens: 6091', '#Output tokens: 4220']);
    assert.deepEqual(
      withBos.dataset.rows.map((r) => r.promptLen),
      plain.dataset.rows.map((r) => r.promptLen - 1),
    );
  });

  test('the numpy stream continues where the dataset left it', async () => {
    const rngs = createBenchRngs(1);
    await buildFromArgv(['--dataset-name', 'random', '--random-input-len', '1024', '--random-output-len', '1024', '--num-prompts', '4'], qwen, rngs);
    rngs.numpy.randint(512, 1025, 5);
    assert.equal(rngs.numpy.exponential(0.25), 0.19348994371518932);
  });

  test('prompts are the shuffled corpus ids cut or repeated to length', async () => {
    const argv = ['--dataset-name', 'random', '--random-input-len', '3000', '--random-range-ratio', '1', '--random-output-len', '8', '--num-prompts', '3'];
    const { dataset } = await buildFromArgv(argv, deepseek);
    const texts = new PythonRandom(1).shuffle(fallbackPromptTexts());
    for (let i = 0; i < 3; i++) {
      const ids = await deepseek.encode(texts[i]!);
      const target = 2999;
      const expected = Array.from({ length: target }, (_, j) => ids[j % ids.length]!);
      assert.equal(dataset.rows[i]!.prompt, await deepseek.decode(expected));
      assert.equal(dataset.rows[i]!.promptLen, target);
    }
    const asIds = await buildFromArgv([...argv, '--tokenize-prompt'], deepseek);
    // --tokenize-prompt keeps the full length (no BOS subtraction) and sends ids.
    const first = asIds.dataset.rows[0]!.prompt as number[];
    assert.equal(first.length, 3000);
    assert.equal(asIds.dataset.rows[0]!.promptLen, 3000);
    const ids = await deepseek.encode(texts[0]!);
    assert.deepEqual(first.slice(0, ids.length), ids);
  });

  test('the fallback corpus serves more prompts than it has passages', async () => {
    const argv = ['--dataset-name', 'random', '--random-input-len', '4', '--random-output-len', '4', '--num-prompts', '2500'];
    const { dataset } = await buildFromArgv(argv, qwen);
    assert.equal(dataset.rows.length, 2500);
    assert.equal(dataset.rows[1000]!.promptLen, new NumpyRandomState(1).randint(1, 5, 1001)[1000]);
  });

  test('a ShareGPT file given with --dataset-path supplies the text', async () => {
    const path = scratch.write(
      'sharegpt.json',
      JSON.stringify([
        { conversations: [{ from: 'human', value: 'zebra quantum marmalade' }, { from: 'gpt', value: 'ok' }] },
        { conversations: [{ from: 'human', value: 'only one turn' }] },
      ]),
    );
    const { dataset } = await buildFromArgv(
      ['--dataset-name', 'random', '--dataset-path', path, '--random-input-len', '40', '--random-range-ratio', '1', '--num-prompts', '3'],
      qwen,
    );
    // One usable conversation: a single row, though the totals count every sampled length.
    assert.equal(dataset.rows.length, 1);
    assert.ok((dataset.rows[0]!.prompt as string).startsWith('zebra quantum marmalade'));
    const useless = scratch.write('single-turns.json', JSON.stringify([{ conversations: [{ from: 'human', value: 'alone' }] }]));
    await assert.rejects(
      buildFromArgv(['--dataset-name', 'random', '--dataset-path', useless, '--num-prompts', '1'], qwen),
      /single-turns\.json has no conversation with two turns/,
    );
  });

  test('a missing --dataset-path file is a one-line UserError naming it', async () => {
    const missing = `${scratch.dir}/absent.json`;
    await assert.rejects(buildFromArgv(['--dataset-name', 'random', '--dataset-path', missing, '--num-prompts', '2'], qwen), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.ok(e.message.includes(missing) && !e.message.includes('\n'));
      return true;
    });
  });
});

describe('random-ids dataset', () => {
  test('ids run from a numpy offset modulo the base vocabulary', async () => {
    const argv = ['--dataset-name', 'random-ids', '--random-input-len', '50', '--random-output-len', '5', '--num-prompts', '4', '--tokenize-prompt'];
    const { dataset, lines } = await buildFromArgv(argv, qwen);
    const numpy = new NumpyRandomState(1);
    const inputs = numpy.randint(1, 51, 4);
    const outputs = numpy.randint(1, 6, 4);
    const offsets = numpy.randint(0, qwen.vocabSize, 4);
    assert.deepEqual(lines, [`#Input tokens: ${inputs.reduce((a, b) => a + b)}`, `#Output tokens: ${outputs.reduce((a, b) => a + b)}`]);
    dataset.rows.forEach((row, i) => {
      const expected = Array.from({ length: inputs[i]! }, (_, j) => (offsets[i]! + i + j) % qwen.vocabSize);
      assert.deepEqual(row.prompt, expected);
      assert.equal(row.outputLen, outputs[i]);
    });
    const asText = await buildFromArgv(argv.slice(0, -1), qwen);
    assert.equal(asText.dataset.rows[0]!.prompt, await qwen.decode(dataset.rows[0]!.prompt as number[]));
  });
});
