import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptanceTable } from '../sim/model/acceptance-table.js';
import { parseDeployment } from '../sim/index.js';
import { parseBenchArgs } from '../bench/args/parse.js';
import { resolveRunConfig } from '../bench/run-config.js';
import { getHardware } from '../deployment/index.js';
import { lengthOnlyWorkload, predictionWorkloads } from './bench-setup.js';
import { engineFor, predictBench } from './prediction.js';

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

describe('predictBench on the newer accelerators', () => {
  const bench = ['--dataset-name', 'random', '--random-input-len', '256', '--random-output-len', '32', '--num-prompts', '16'];
  const predictOn = async (hardware: string) => {
    const config = resolveRunConfig(parseBenchArgs(bench), { defaultModel: 'Qwen/Qwen2.5-0.5B-Instruct' });
    const workloads = await predictionWorkloads(config, lengthOnlyWorkload(config), () => {});
    return (await predictBench(parseDeployment(['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--hardware', hardware], [], []), config, workloads)).metrics;
  };

  for (const [name, key] of [['mi350x', 'mi350x'], ['gb300', 'gb300'], ['rtx-pro-6000', 'rtx-pro-6000'], ['RTX PRO 6000', 'rtx-pro-6000'], ['rtx-pro-6000-blackwell', 'rtx-pro-6000']]) {
    test(`--hardware '${name}' resolves to ${key} and predicts a small model`, async () => {
      assert.equal(getHardware(name).key, key);
      const metrics = await predictOn(name);
      assert.equal(metrics.completed, 16);
      assert.ok(metrics.meanTpotMs > 0 && Number.isFinite(metrics.meanTpotMs));
    });
  }

  test('the PCIe card with GDDR7 decodes slower than a GB300', async () => {
    assert.ok((await predictOn('rtx-pro-6000')).meanTpotMs > (await predictOn('gb300')).meanTpotMs);
  });
});
