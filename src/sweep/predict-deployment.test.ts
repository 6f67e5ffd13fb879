import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../core/errors.js';
import { deploymentCards, deploymentDevices, describeDeployment, parsePredictDeployment } from './predict-deployment.js';

describe('parsePredictDeployment', () => {
  test('plain launch flags are one PD-mixed instance', () => {
    const deployment = parsePredictDeployment(['--model-path', 'Qwen/Qwen3-32B', '--tp', '4', '--dp', '2', '--hardware', 'ascend-910c'], [], []);
    assert.equal(deployment.mode, 'pd-mixed');
    assert.equal(deploymentDevices(deployment), 8);
    assert.equal(deploymentCards(deployment), 4);
    assert.equal(describeDeployment(deployment), 'Qwen3-32B on 8 x ascend-910c: PD mixed');
  });

  test('prefill and decode instances share the outer flags; their own flags win; launchers are dropped', () => {
    const deployment = parsePredictDeployment(
      ['--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', 'b200', '--tp', '2'],
      ['python -m sglang.launch_server --tp 8', '--tp 8'],
      ['sglang serve --tp 8 --dp 8 --enable-dp-attention --ep 8'],
    );
    assert.equal(deployment.mode, 'pd-separated');
    assert.deepEqual(deployment.instances.map((i) => [i.role, i.launch.tpSize, i.launch.disaggregationMode]), [
      ['prefill', 8, 'prefill'],
      ['prefill', 8, 'prefill'],
      ['decode', 8, 'decode'],
    ]);
    assert.equal(deployment.instances[2]?.launch.enableDpAttention, true);
    assert.equal(deploymentDevices(deployment), 24);
    assert.equal(describeDeployment(deployment), 'DeepSeek-V3.2 on 24 x b200: PD separated (2 prefill, 1 decode)');
  });

  test('PD separation needs both sides', () => {
    assert.throws(() => parsePredictDeployment(['--model-path', 'm'], ['--tp 1'], []), (e: unknown) => e instanceof UsageError && /both --prefill/.test(e.message));
  });
});
