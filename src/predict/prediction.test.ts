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

describe('predictBench of the families deployed in 2026, by their hub names', () => {
  const bench = ['--dataset-name', 'random', '--random-input-len', '512', '--random-output-len', '16', '--num-prompts', '8'];
  const hubNames = [
    'meta-llama/Llama-3.1-8B-Instruct', 'meta-llama/Llama-3.3-70B-Instruct', 'meta-llama/Llama-4-Scout-17B-16E-Instruct',
    'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', 'google/gemma-3-27b-it', 'google/gemma-4-E2B-it', 'google/gemma-4-E4B-it',
    'google/gemma-4-26B-A4B-it', 'google/gemma-4-31B-it', 'Qwen/Qwen2.5-7B-Instruct', 'Qwen/Qwen3-8B', 'Qwen/Qwen3-235B-A22B',
    'Qwen/Qwen3-Next-80B-A3B-Instruct', 'Qwen/Qwen3-Coder-480B-A35B-Instruct', 'Qwen/Qwen3-Coder-Next', 'Qwen/Qwen3-VL-8B-Instruct',
    'Qwen/Qwen3.5-397B-A17B', 'deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1', 'deepseek-ai/DeepSeek-V3.1',
    'deepseek-ai/DeepSeek-V3.2', 'deepseek-ai/DeepSeek-OCR', 'moonshotai/Kimi-K2-Instruct', 'moonshotai/Kimi-K2.5',
    'moonshotai/Kimi-K2-Thinking', 'moonshotai/Kimi-Linear-48B-A3B-Instruct', 'zai-org/GLM-4.5', 'zai-org/GLM-4.6', 'zai-org/GLM-4.7',
    'zai-org/GLM-4.7-Flash', 'zai-org/GLM-5', 'MiniMaxAI/MiniMax-M2', 'MiniMaxAI/MiniMax-M2.5', 'openai/gpt-oss-120b',
    'baidu/ERNIE-4.5-300B-A47B-PT', 'nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16', 'nvidia/NVIDIA-Nemotron-3-Super-120B-A12B',
    'stepfun-ai/Step-3.5-Flash', 'mistralai/Mistral-Small-3.1-24B-Instruct-2503', 'mistralai/Ministral-3-8B-Instruct-2512',
    'mistralai/Mixtral-8x7B-Instruct-v0.1', 'XiaomiMiMo/MiMo-7B-RL', 'XiaomiMiMo/MiMo-V2-Flash',
  ];
  for (const hubName of hubNames) {
    test(`${hubName} predicts from its bundled config.json`, async () => {
      const config = resolveRunConfig(parseBenchArgs(bench), { defaultModel: hubName });
      const workloads = await predictionWorkloads(config, lengthOnlyWorkload(config), () => {});
      const deployment = parseDeployment(['--model-path', hubName, '--hardware', 'gb300', '--tp', '8'], [], []);
      const metrics = (await predictBench(deployment, config, workloads)).metrics;
      assert.equal(metrics.completed, 8);
      assert.ok(metrics.meanTpotMs > 0 && Number.isFinite(metrics.meanTpotMs) && metrics.meanTtftMs > 0);
    });
  }
});
