import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SGLANG_FLAGS, SIM_MODEL_FLAGS, SIM_SERVER_FLAGS, TRUTH_FLAGS } from './effective-flags.js';
import { SGLANG_SERVER_FLAGS } from './sglang-flags.js';

test("every SGLang flag the sim reads is one of SGLang's, with SGLang's arity", () => {
  for (const spec of SGLANG_FLAGS) {
    for (const name of spec.names) {
      assert.equal(SGLANG_SERVER_FLAGS.get(name), spec.metavar === undefined ? 'none' : 'one', `--${name}`);
    }
  }
});

test("the sim's own flags are not SGLang's, and no name is listed twice", () => {
  const own = [...SIM_MODEL_FLAGS, ...SIM_SERVER_FLAGS, ...TRUTH_FLAGS].flatMap((spec) => spec.names);
  assert.deepEqual(own.filter((name) => SGLANG_SERVER_FLAGS.has(name)), []);
  const all = [...SGLANG_FLAGS.flatMap((spec) => spec.names), ...own];
  assert.equal(new Set(all).size, all.length);
});
