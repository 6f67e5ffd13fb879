import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { NumpyRandomState } from '../../core/rng.js';
import { UsageError } from '../../core/errors.js';
import { parseBenchArgs } from '../args/parse.js';
import { resolveRunConfig } from '../run-config.js';
import { sampleShareGptLengths } from './sharegpt-lengths.js';

const options = (...flags: string[]) => resolveRunConfig(parseBenchArgs(['--dataset-name', 'sharegpt', ...flags])).dataset;
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('ShareGPT length model', () => {
  test('the same seed gives the same pairs; another seed, others', () => {
    const a = sampleShareGptLengths(options('--num-prompts', '200'), new NumpyRandomState(1));
    assert.deepEqual(a, sampleShareGptLengths(options('--num-prompts', '200'), new NumpyRandomState(1)));
    assert.notDeepEqual(a, sampleShareGptLengths(options('--num-prompts', '200'), new NumpyRandomState(2)));
    assert.equal(a.inputLens.length, 200);
    assert.ok([...a.inputLens, ...a.outputLens].every((n) => Number.isInteger(n) && n >= 2));
  });

  test("pruned as vLLM's benchmark_serving prunes, a large sample averages the published 1000-prompt runs (about 216 in, 198 out)", () => {
    const { inputLens, outputLens } = sampleShareGptLengths(options('--num-prompts', '50000'), new NumpyRandomState(7));
    const kept = inputLens.flatMap((input, i) => {
      const output = outputLens[i]!;
      return input >= 4 && output >= 4 && input <= 1024 && input + output <= 2048 ? [[input, output] as const] : [];
    });
    const [input, output] = [mean(kept.map(([i]) => i)), mean(kept.map(([, o]) => o))];
    assert.ok(Math.abs(input / 216 - 1) < 0.03, `mean input ${input}`);
    assert.ok(Math.abs(output / 198 - 1) < 0.03, `mean output ${output}`);
    // bench_serving keeps the long tail vLLM prunes.
    assert.ok(mean(inputLens) > 1.3 * input, `unpruned mean input ${mean(inputLens)}`);
  });

  test('--sharegpt-output-len fixes the output; --sharegpt-context-len drops longer pairs', () => {
    const fixed = sampleShareGptLengths(options('--num-prompts', '100', '--sharegpt-output-len', '64'), new NumpyRandomState(1));
    assert.ok(fixed.outputLens.every((n) => n === 64));
    const capped = sampleShareGptLengths(options('--num-prompts', '500', '--sharegpt-context-len', '300'), new NumpyRandomState(1));
    assert.equal(capped.inputLens.length, 500);
    assert.ok(capped.inputLens.every((input, i) => input + capped.outputLens[i]! <= 300));
  });

  test('a context too short for any pair gives fewer rows, as bench_serving does; a fixed output below 4 is refused', () => {
    assert.equal(sampleShareGptLengths(options('--sharegpt-context-len', '3'), new NumpyRandomState(1)).inputLens.length, 0);
    assert.throws(() => sampleShareGptLengths(options('--sharegpt-output-len', '3'), new NumpyRandomState(1)), UsageError);
  });
});
