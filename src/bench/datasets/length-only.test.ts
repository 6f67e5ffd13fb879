import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createBenchRngs } from '../../core/rng.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import type { Tokenizer } from '../../tokenizer/types.js';
import { parseBenchArgs } from '../args/parse.js';
import { resolveRunConfig } from '../run-config.js';
import type { Dataset } from '../types.js';
import { buildLengthOnlyDataset } from './length-only.js';
import { buildFromArgv, scratchFolder } from '../../../test/helpers/datasets.js';

const qwen = await loadTokenizer({ model: 'Qwen/Qwen2.5-0.5B' });
const deepseek = await loadTokenizer({ model: 'deepseek-ai/DeepSeek-V3.2' });
const scratch = scratchFolder('servebench-length-only-');
after(() => rmSync(scratch.dir, { recursive: true, force: true }));

const lengths = (dataset: Dataset): number[][] => dataset.rows.map((r) => [r.promptLen, r.outputLen]);

/** The length-only build and bench's own build of `argv`, each with its printed lines and the numpy draw that follows. */
async function both(argv: string[], tokenizer: Tokenizer) {
  const benchRngs = createBenchRngs(1);
  const bench = await buildFromArgv(argv, tokenizer, benchRngs);
  const lines: string[] = [];
  const rngs = createBenchRngs(1);
  const dataset = buildLengthOnlyDataset(resolveRunConfig(parseBenchArgs(argv)).dataset, tokenizer.numSpecialTokensToAdd, rngs, (line) => lines.push(line));
  return { bench: { ...bench, next: benchRngs.numpy.exponential(1) }, lengthOnly: { dataset, lines, next: rngs.numpy.exponential(1) } };
}

describe('length-only random datasets', () => {
  for (const [name, tokenizer] of [['no special token', qwen], ['a BOS', deepseek]] as const) {
    test(`random: bench's lengths, lines and numpy stream, ${name}`, async () => {
      const argv = ['--dataset-name', 'random', '--random-input-len', '300', '--random-output-len', '40', '--num-prompts', '30'];
      const { bench, lengthOnly } = await both(argv, tokenizer);
      assert.deepEqual(lengths(lengthOnly.dataset), lengths(bench.dataset));
      assert.deepEqual(lengthOnly.lines, bench.lines);
      assert.equal(lengthOnly.next, bench.next);
      assert.ok(lengthOnly.dataset.rows.every((r) => r.prompt === '' && r.textPromptLen === r.promptLen));
    });
  }

  test('random with --tokenize-prompt keeps the full lengths', async () => {
    const argv = ['--dataset-name', 'random', '--random-input-len', '50', '--random-output-len', '5', '--num-prompts', '6', '--tokenize-prompt'];
    const { bench, lengthOnly } = await both(argv, deepseek);
    assert.deepEqual(lengths(lengthOnly.dataset), lengths(bench.dataset));
  });

  test('random over a --dataset-path file with fewer usable turns than prompts: as many rows as bench', async () => {
    const turn = (value: string) => ({ conversations: [{ from: 'human', value }, { from: 'gpt', value: 'ok' }] });
    const path = scratch.write('short.json', JSON.stringify([turn('alpha beta'), turn(''), turn('gamma'), { conversations: [{ from: 'human', value: 'x' }] }]));
    const argv = ['--dataset-name', 'random', '--dataset-path', path, '--random-input-len', '20', '--random-output-len', '5', '--num-prompts', '5'];
    for (const tokenizer of [qwen, deepseek]) {
      const { bench, lengthOnly } = await both(argv, tokenizer);
      assert.deepEqual(lengths(lengthOnly.dataset), lengths(bench.dataset));
      assert.deepEqual(lengthOnly.lines, bench.lines);
    }
    // The empty first turn encodes to nothing without a BOS, to the BOS with one.
    assert.equal((await both(argv, qwen)).lengthOnly.dataset.rows.length, 2);
    assert.equal((await both(argv, deepseek)).lengthOnly.dataset.rows.length, 3);
  });

  test("random-ids: bench's lengths and lines; the id draws are left out of the numpy stream", async () => {
    const argv = ['--dataset-name', 'random-ids', '--random-input-len', '200', '--random-output-len', '20', '--num-prompts', '12'];
    const { bench, lengthOnly } = await both(argv, deepseek);
    assert.deepEqual(lengths(lengthOnly.dataset), lengths(bench.dataset));
    assert.deepEqual(lengthOnly.lines, bench.lines);
    const afterLengths = createBenchRngs(1).numpy;
    afterLengths.randint(1, 201, 12);
    afterLengths.randint(1, 21, 12);
    assert.equal(lengthOnly.next, afterLengths.exponential(1));
  });
});
