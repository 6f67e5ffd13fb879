import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getModel } from '../deployment/model/bundled-models.js';
import { architectureClass } from './architecture-class.js';
import type { PreparedCase } from './case-runner.js';
import { factorsWithoutData, foldsOf } from './cross-validation.js';

/** A case as the folds see it: its group, its class, and what caseUsesFactor reads of its deployment. */
function fakeCase(model: string, hardware: string): PreparedCase {
  const spec = getModel(model)!;
  return {
    group: `${model} × ${hardware}`,
    architecture: architectureClass(spec),
    resolved: [{ hardware: { family: 'nvidia' }, speculative: null, expertAllToAll: false, prefillContextParallel: 1, model: spec }],
  } as unknown as PreparedCase;
}

const cases = [
  fakeCase('deepseek-v3', 'b200'),
  fakeCase('qwen3-32b', 'h100'),
  fakeCase('deepseek-v3.2', 'h800'),
  fakeCase('deepseek-v3', 'mi300x'),
  fakeCase('llama-3.1-70b', 'a100'),
  fakeCase('qwen3-235b-a22b', 'h100'),
  fakeCase('deepseek-v3', 'b200'),
];

describe('foldsOf', () => {
  test('leave-one-group-out holds out one model × hardware pair per fold', () => {
    assert.deepEqual(foldsOf(cases, 'group'), [
      { name: 'deepseek-v3 × b200', heldOut: [0, 6] },
      { name: 'qwen3-32b × h100', heldOut: [1] },
      { name: 'deepseek-v3.2 × h800', heldOut: [2] },
      { name: 'deepseek-v3 × mi300x', heldOut: [3] },
      { name: 'llama-3.1-70b × a100', heldOut: [4] },
      { name: 'qwen3-235b-a22b × h100', heldOut: [5] },
    ]);
  });

  test('leave-one-architecture-out holds out every case of one class at once, across models and hardware', () => {
    assert.deepEqual(foldsOf(cases, 'architecture'), [
      { name: 'MLA MoE', heldOut: [0, 3, 6] },
      { name: 'GQA dense', heldOut: [1, 4] },
      { name: 'MLA+DSA MoE', heldOut: [2] },
      { name: 'GQA MoE', heldOut: [5] },
    ]);
  });
});

describe('factorsWithoutData', () => {
  const factors = ['nvidia.memory', 'kernels.mla', 'kernels.dsaIndexer', 'dsa.passScale', 'kernels.moe', 'kernels.gqa'];
  const without = (held: readonly number[]): string[] => factorsWithoutData(cases.filter((_, i) => !held.includes(i)), factors);

  test('holding out the only sparse-attention class leaves its factors nothing to fit', () => {
    assert.deepEqual(without([2]), ['kernels.dsaIndexer', 'dsa.passScale']);
  });

  test('a class whose kernels other classes share leaves every factor fitted', () => {
    assert.deepEqual(without([0, 3, 6]), []);
    assert.deepEqual(without([1, 4]), []);
  });

  test('holding out every MLA class leaves the MLA kernels unfitted too', () => {
    assert.deepEqual(without([0, 2, 3, 6]), ['kernels.mla', 'kernels.dsaIndexer', 'dsa.passScale']);
  });
});
