import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptanceTable } from '../sim/model/acceptance-table.js';
import { parseDeployment } from '../sim/index.js';
import { engineFor } from './prediction.js';

describe('engineFor', () => {
  const acceptance = acceptanceTable([
    { model: 'deepseek-v3.2-exp', dataset: 'random', rate: 0.8 },
    { model: 'deepseek-v3.2-exp', dataset: 'sharegpt', rate: 0.68 },
  ]);
  const shared = ['--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--hardware', 'b200', '--tp', '8', '--speculative-algorithm', 'EAGLE'];

  test("every instance decodes with the acceptance seen on the workload's dataset", () => {
    assert.equal(engineFor(parseDeployment(shared, [], []), 'sharegpt', { acceptance }).deployment.speculative!.acceptRate, 0.68);
    const pd = parseDeployment(shared, ['--disaggregation-mode prefill'], ['--disaggregation-mode decode']);
    assert.equal(engineFor(pd, 'random', { acceptance }).deployment.speculative!.acceptRate, 0.8);
  });

  test('a dataset the launch flags name wins', () => {
    const deployment = parseDeployment([...shared, '--sim-dataset', 'random'], [], []);
    assert.equal(engineFor(deployment, 'sharegpt', { acceptance }).deployment.speculative!.acceptRate, 0.8);
  });
});
