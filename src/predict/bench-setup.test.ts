import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../core/errors.js';
import { parseBenchArgs } from '../bench/args/parse.js';
import { resolveRunConfig } from '../bench/run-config.js';
import { lengthOnlyWorkload } from './bench-setup.js';

const args = (model: string, ...flags: string[]) => resolveRunConfig(parseBenchArgs(flags), { defaultModel: model });

describe('lengthOnlyWorkload', () => {
  test('only for random and random-ids, and only when no tokenizer is found', () => {
    assert.equal(lengthOnlyWorkload(args('meta-llama/Llama-3.3-70B-Instruct', '--dataset-name', 'random')), null);
    assert.equal(lengthOnlyWorkload(args('some-org/UnknownModel-7B', '--dataset-name', 'sharegpt')), null);
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
