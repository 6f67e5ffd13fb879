import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getModel } from '../deployment/model/bundled-models.js';
import { architectureClass } from './architecture-class.js';

const classOf = (key: string): string => {
  const model = getModel(key);
  assert.ok(model, `catalog has ${key}`);
  return architectureClass(model);
};

describe('architectureClass', () => {
  test('classes catalog models by attention kind × MLP kind', () => {
    assert.equal(classOf('deepseek-v3'), 'MLA MoE');
    assert.equal(classOf('deepseek-v3.2'), 'MLA+DSA MoE');
    assert.equal(classOf('qwen3-32b'), 'GQA dense');
    assert.equal(classOf('llama-3.1-70b'), 'GQA dense');
    assert.equal(classOf('qwen3-235b-a22b'), 'GQA MoE');
    assert.equal(classOf('qwen3-next-80b-a3b'), 'hybrid linear MoE');
    assert.equal(classOf('gpt-oss-120b'), 'sliding-window GQA MoE');
    assert.equal(classOf('gemma-3-27b'), 'sliding-window GQA dense');
  });

  test('reads the structure, not the name', () => {
    const dense = getModel('qwen3-32b')!;
    assert.equal(architectureClass({ ...dense, key: 'deepseek-v3', name: 'DeepSeek-V3' }), 'GQA dense');
    assert.equal(architectureClass({ ...getModel('deepseek-v3')!, key: 'qwen3-32b', name: 'Qwen3-32B' }), 'MLA MoE');
  });
});
