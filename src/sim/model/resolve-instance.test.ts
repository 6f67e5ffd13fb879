import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError, UserError } from '../../core/errors.js';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { acceptanceTable } from './acceptance-table.js';
import { resolveInstance } from './resolve-instance.js';
import { kvBytesPerTokenPerDevice } from './params.js';

const deploy = (...args: string[]) => resolveInstance(parseLaunchArgs(args).launch);

describe('resolveInstance', () => {
  test('chunked prefill defaults by device memory', () => {
    assert.equal(deploy('--model-path', 'qwen2.5-0.5b', '--hardware', 'h100').chunkedPrefillPerRank, 8192);
    assert.equal(deploy('--model-path', 'qwen2.5-0.5b', '--hardware', 'b200').chunkedPrefillPerRank, 16384);
    assert.equal(deploy('--model-path', 'qwen3-32b', '--hardware', 'ascend-910c', '--tp', '2').chunkedPrefillPerRank, 32768);
  });

  test('DP attention divides chunked prefill and max running requests over the ranks', () => {
    const d = deploy(
      '--model-path', 'Qwen3-Coder-480B-A35B-Instruct-w8a8', '--hardware', 'ascend-910c', '--tp', '16', '--dp-size', '4',
      '--enable-dp-attention', '--max-running-requests', '80', '--chunked-prefill-size', '28672', '--quantization', 'modelslim',
    );
    assert.equal(d.attentionDp, 4);
    assert.equal(d.attentionTp, 4);
    assert.equal(d.chunkedPrefillPerRank, 7168);
    assert.equal(d.maxRunningPerRank, 20);
    assert.equal(d.quant.name, 'w8a8');
    assert.ok(d.newTokenRatio.initial < 0.7, 'conservativeness 0.3 under DP attention');
  });

  test('an all-to-all MoE backend sets EP to TP', () => {
    const d = deploy('--model-path', 'qwen3-235b-a22b', '--hardware', 'h200', '--tp', '8', '--moe-a2a-backend', 'deepep');
    assert.equal(d.ep, 8);
    assert.equal(d.expertTp, 1);
  });

  test('KV pool: weights come off the HBM budget, the rest divided by bytes per token', () => {
    const small = deploy('--model-path', 'qwen2.5-0.5b', '--hardware', 'h100');
    const big = deploy('--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '2');
    assert.ok(small.kvCapacityPerRank > 4_000_000);
    assert.ok(big.kvCapacityPerRank > 50_000 && big.kvCapacityPerRank < 300_000, String(big.kvCapacityPerRank));
    const fp8Kv = deploy('--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '2', '--kv-cache-dtype', 'fp8_e4m3');
    assert.ok(Math.abs(fp8Kv.kvCapacityPerRank / big.kvCapacityPerRank - 2) < 0.01);
    const capped = deploy('--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '2', '--max-total-tokens', '10000');
    assert.equal(capped.kvCapacityPerRank, 10000);
  });

  test('a model that does not fit names --tp-size', () => {
    assert.throws(
      () => deploy('--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h100'),
      (e: unknown) => e instanceof UserError && /--tp-size/.test(e.message),
    );
  });

  test('speculative decoding: steps and draft tokens, MTP draft weights on every device', () => {
    const d = deploy(
      '--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--hardware', 'b200', '--tp', '8',
      '--speculative-algorithm', 'EAGLE', '--speculative-num-steps', '3', '--speculative-num-draft-tokens', '4',
    );
    assert.deepEqual([d.speculative?.steps, d.speculative?.draftTokens], [3, 4]);
    assert.ok(d.speculative!.draftBytesPerDevice > 1e9);
    assert.equal(d.pageSize, 64, 'MLA on NVIDIA uses 64-token pages');
    assert.throws(() => deploy('--model-path', 'qwen3-32b', '--speculative-algorithm', 'MEDUSA'), UsageError);
  });

  test("speculative acceptance is the one published on the dataset --sim-dataset names, else the model's over its datasets", () => {
    const acceptance = acceptanceTable([
      { model: 'deepseek-v3.2-exp', dataset: 'random', rate: 0.8 },
      { model: 'deepseek-v3.2-exp', dataset: 'sharegpt', rate: 0.68 },
    ]);
    const flags = ['--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--hardware', 'b200', '--tp', '8', '--speculative-algorithm', 'EAGLE'];
    const rateOn = (...extra: string[]) => resolveInstance(parseLaunchArgs([...flags, ...extra]).launch, { acceptance }).speculative!.acceptRate;
    assert.equal(rateOn('--sim-dataset', 'random'), 0.8);
    assert.equal(rateOn('--sim-dataset', 'sharegpt'), 0.68);
    assert.ok(Math.abs(rateOn() - 0.74) < 1e-9);
    assert.throws(() => rateOn('--sim-dataset', 'wikitext'), /argument --sim-dataset: invalid choice: 'wikitext' \(choose from 'sharegpt', /);
  });

  test('DP without DP attention makes independent replicas; TP across nodes is flagged', () => {
    const replicas = deploy('--model-path', 'qwen2.5-7b', '--hardware', 'h100', '--dp', '2');
    assert.equal(replicas.replicas, 2);
    assert.equal(replicas.attentionDp, 1);
    const twoNodes = deploy('--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', 'h800', '--tp', '16', '--nnodes', '2');
    assert.equal(twoNodes.crossNode, true);
    assert.throws(() => deploy('--model-path', 'qwen3-32b', '--tp', '6', '--dp', '4', '--enable-dp-attention'), UsageError);
    assert.throws(
      () => deploy('--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '16'),
      (e: unknown) => e instanceof UsageError && /--nnodes 2/.test(e.message),
    );
    assert.equal(deploy('--model-path', 'Qwen3-Coder-480B-A35B-w8a8', '--hardware', 'ascend-910c', '--tp', '16').crossNode, false);
  });
});

describe('resolveInstance with a local config.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'servebench-deployment-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({
    model_type: 'llama', num_hidden_layers: 20, hidden_size: 2048, num_attention_heads: 16, num_key_value_heads: 4,
    intermediate_size: 5632, vocab_size: 32000, max_position_embeddings: 8192, quantization_config: { quant_method: 'fp8' },
  }));

  test('the config gives the architecture, its context length and its native format; --quantization still wins', () => {
    const d = deploy('--model-path', dir, '--hardware', 'h100');
    assert.deepEqual([d.model.layers, d.contextLength, d.quant.name], [20, 8192, 'fp8']);
    assert.equal(d.kvBytesPerTokenPerDevice, 2 * 20 * 4 * 128 * 2);
    assert.equal(deploy('--model-path', dir, '--hardware', 'h100', '--quantization', 'awq').quant.name, 'int4');
  });
});

describe('resolveInstance with sliding-window and MXFP4 models', () => {
  test('gpt-oss: MXFP4 math runs in BF16 on Hopper and in FP4 on Blackwell', () => {
    assert.equal(deploy('--model-path', 'openai/gpt-oss-120b', '--hardware', 'h100').quant.mathBits, 16);
    assert.equal(deploy('--model-path', 'openai/gpt-oss-120b', '--hardware', 'b200').quant.mathBits, 4);
    assert.ok(deploy('--model-path', 'openai/gpt-oss-120b', '--hardware', 'h100').weightBytesPerDevice < 65e9);
  });

  test("gpt-oss: the window layers' own pool leaves more full-attention tokens; --disable-hybrid-swa-memory pools all layers", () => {
    const hybrid = deploy('--model-path', 'openai/gpt-oss-120b', '--hardware', 'h100');
    const single = deploy('--model-path', 'openai/gpt-oss-120b', '--hardware', 'h100', '--disable-hybrid-swa-memory');
    const ratio = hybrid.kvCapacityPerRank / single.kvCapacityPerRank;
    assert.ok(Math.abs(ratio - 36 / (18 + 0.8 * 18)) < 0.001, String(ratio));
    const halfWindowPool = deploy('--model-path', 'openai/gpt-oss-120b', '--hardware', 'h100', '--swa-full-tokens-ratio', '0.5');
    assert.ok(halfWindowPool.kvCapacityPerRank > hybrid.kvCapacityPerRank);
    assert.equal(hybrid.kvBytesPerTokenPerDevice, kvBytesPerTokenPerDevice(hybrid.model, 2, 1));
  });
});

