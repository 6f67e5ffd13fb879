import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expectedAcceptLength } from '../sim/engine/speculative.js';
import { acceptRateFor } from '../sim/model/acceptance-table.js';
import { fitAcceptance } from './acceptance.js';
import type { PreparedCase } from './case-runner.js';

/** A prepared case reduced to what the acceptance fit reads. */
function specCase(model: string, dataset: string, acceptLength: number | null, draftTokens: number | null): PreparedCase {
  const deployment = {
    model: { key: model },
    speculative: draftTokens === null ? null : { draftTokens },
    efficiency: { speculative: { lowAcceptTail: null } },
  };
  return { case: { published: { acceptLength } }, resolved: [deployment], config: { dataset: { name: dataset } } } as unknown as PreparedCase;
}

describe('fitAcceptance', () => {
  test("each model × dataset pair's rate reproduces its published lengths; runs without speculation or a length are left out", () => {
    const table = fitAcceptance([
      specCase('qwen3-32b', 'random', 2.05, 4),
      specCase('qwen3-32b', 'random', 2.15, 5),
      specCase('qwen3-30b-a3b', 'random', 3.17, 4),
      specCase('deepseek-v3', 'sharegpt', 2.83, 4),
      specCase('llama-3.1-70b', 'random', null, null),
      specCase('qwen3-235b-a22b', 'random', null, 4),
    ]);
    assert.deepEqual(Object.keys(table.models).sort(), ['deepseek-v3', 'qwen3-30b-a3b', 'qwen3-32b']);
    assert.ok(Math.abs(expectedAcceptLength(acceptRateFor(table, 'qwen3-30b-a3b', 'random'), 4) - 3.17) < 1e-6);
    // One chain rate serves both of Qwen3-32B's draft lengths: 4 tokens → 2.05, 5 tokens → 2.15.
    const qwen32 = acceptRateFor(table, 'qwen3-32b', 'random');
    assert.ok(Math.abs(expectedAcceptLength(qwen32, 4) - 2.05) < 0.03);
    assert.ok(Math.abs(expectedAcceptLength(qwen32, 5) - 2.15) < 0.03);
    assert.ok(Math.abs(expectedAcceptLength(acceptRateFor(table, 'deepseek-v3', 'sharegpt'), 4) - 2.83) < 1e-6);
  });
});
