import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expectedAcceptLength } from '../engine/speculative.js';
import { fitAcceptance } from './acceptance.js';
import type { PreparedCase } from './case-runner.js';

/** A prepared case reduced to what the acceptance fit reads. */
function specCase(model: string, acceptLength: number | null, draftTokens: number | null): PreparedCase {
  const deployment = {
    model: { key: model },
    speculative: draftTokens === null ? null : { draftTokens },
    efficiency: { speculative: { lowAcceptTail: null } },
  };
  return { case: { published: { acceptLength } }, resolved: [deployment] } as unknown as PreparedCase;
}

describe('fitAcceptance', () => {
  test("each model's rate reproduces its published lengths; models without one get the median", () => {
    const fit = fitAcceptance([
      specCase('qwen3-32b', 2.05, 4),
      specCase('qwen3-32b', 2.15, 5),
      specCase('qwen3-30b-a3b', 3.17, 4),
      specCase('deepseek-v3', 2.83, 4),
      specCase('llama-3.1-70b', null, null),
      specCase('qwen3-235b-a22b', null, 4),
    ]);
    assert.deepEqual(Object.keys(fit.rates).sort(), ['deepseek-v3', 'qwen3-30b-a3b', 'qwen3-32b']);
    assert.ok(Math.abs(expectedAcceptLength(fit.rates['qwen3-30b-a3b']!, 4) - 3.17) < 1e-6);
    // One chain rate serves both of Qwen3-32B's draft lengths: 4 tokens → 2.05, 5 tokens → 2.15.
    assert.ok(Math.abs(expectedAcceptLength(fit.rates['qwen3-32b']!, 4) - 2.05) < 0.03);
    assert.ok(Math.abs(expectedAcceptLength(fit.rates['qwen3-32b']!, 5) - 2.15) < 0.03);
    assert.equal(fit.fallback, fit.rates['deepseek-v3']);
  });

  test('no published length, no fallback', () => {
    assert.equal(fitAcceptance([specCase('m', null, 4)]).fallback, null);
  });
});
