import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../core/errors.js';
import { parseBenchArgs } from '../bench/args/parse.js';
import { resolveRunConfig } from '../bench/run-config.js';
import { lengthOnlyWorkload, predictionWorkloads } from './bench-setup.js';

const args = (model: string, ...flags: string[]) => resolveRunConfig(parseBenchArgs(flags), { defaultModel: model });

describe('lengthOnlyWorkload', () => {
  test('for random and random-ids only when no tokenizer is found; sharegpt only without its file', () => {
    assert.equal(lengthOnlyWorkload(args('meta-llama/Llama-3.3-70B-Instruct', '--dataset-name', 'random')), null);
    assert.equal(lengthOnlyWorkload(args('some-org/UnknownModel-7B', '--dataset-name', 'sharegpt', '--dataset-path', 'sharegpt.json')), null);
    assert.equal(lengthOnlyWorkload(args('some-org/UnknownModel-7B', '--dataset-name', 'generated-shared-prefix')), null);
    const random = lengthOnlyWorkload(args('some-org/UnknownModel-7B', '--dataset-name', 'random'));
    assert.equal(random?.specialTokens, 0);
    assert.doesNotMatch(random!.note, /request-rate/);
  });

  test('random-ids says its arrivals leave out the vocabulary-dependent id draws', () => {
    const ids = lengthOnlyWorkload(args('some-org/UnknownModel-7B', '--dataset-name', 'random-ids', '--request-rate', '4'));
    assert.match(ids!.note, /^note: no tokenizer for some-org\/UnknownModel-7B was found, so the random-ids workload was built from its sampled lengths alone, /);
    assert.match(ids!.note, /arrivals at a finite --request-rate are drawn without the id draws before them/);
    assert.ok(!ids!.note.includes('\n'));
  });

  test('a --tokenizer that names nothing is an error, not a reason to build from lengths', () => {
    assert.throws(() => lengthOnlyWorkload(args('some-org/UnknownModel-7B', '--dataset-name', 'random', '--tokenizer', '/no/such/tokenizer')), UserError);
  });
});

describe('sharegpt without --dataset-path', () => {
  test('takes the bundled length model, tokenizer or not, and says so in one line', () => {
    for (const model of ['Qwen/Qwen2.5-7B-Instruct', 'some-org/UnknownModel-7B']) {
      const workload = lengthOnlyWorkload(args(model, '--dataset-name', 'sharegpt'));
      assert.equal(workload?.specialTokens, 0);
      assert.match(workload!.note, /^note: without --dataset-path the sharegpt workload's lengths come from servebench's bundled ShareGPT length model .*, not the file; pass --dataset-path /);
      assert.ok(!workload!.note.includes('\n'));
    }
  });

  test('names the template tokens it cannot count', () => {
    const workload = lengthOnlyWorkload(args('some-org/UnknownModel-7B', '--dataset-name', 'sharegpt', '--apply-chat-template'));
    assert.match(workload!.note, /--apply-chat-template and --prompt-suffix add are not counted/);
  });

  test('predictionWorkloads builds its rows from a seed, the same each time', async () => {
    const config = args('Qwen/Qwen2.5-7B-Instruct', '--dataset-name', 'sharegpt', '--num-prompts', '20');
    const build = async () => (await (await predictionWorkloads(config, lengthOnlyWorkload(config), () => {})).workload(config)).dataset.rows;
    const [first, second] = [await build(), await build()];
    assert.equal(first.length, 20);
    assert.deepEqual(first.map((r) => [r.promptLen, r.outputLen]), second.map((r) => [r.promptLen, r.outputLen]));
  });
});
