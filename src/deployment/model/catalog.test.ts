import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError, UserError } from '../../core/errors.js';
import { allModels } from './bundled-models.js';
import { getHardware, hardwareForLabel, hardwareNames } from './catalog.js';
import { findModelByName, identifyModel } from './identify.js';
import {
  activeParams,
  kvBytesPerRequestPerDevice,
  kvBytesPerTokenPerDevice,
  kvPoolBytesPerTokenPerDevice,
  totalParams,
} from '../../sim/model/params.js';
import { kvElementBytes, mathPeak, quantFromName, quantOnHardware, resolveQuant } from './quantization.js';

describe('hardware catalog', () => {
  test('lists every profile the sim accepts, each with a source and positive figures', () => {
    assert.deepEqual(hardwareNames(), [
      'a100', 'a100-40gb', 'l40s', 'h100', 'h200', 'h800', 'h20', 'rtx-pro-6000', 'b200', 'b300', 'gb200', 'gb300', 'mi300x', 'mi325x', 'mi355x', 'mi350x',
      'ascend-910b', 'ascend-910c',
    ]);
    for (const name of hardwareNames()) {
      const hw = getHardware(name);
      assert.ok(hw.source.length > 20, name);
      for (const field of ['bf16Tflops', 'int8Tops', 'hbmGB', 'hbmTBs', 'scaleUpGBs', 'interNodeGBs', 'devicesPerNode', 'devicesPerCard'] as const) {
        assert.ok(hw[field] > 0, `${name}.${field}`);
      }
      assert.equal(hw.devicesPerNode % hw.devicesPerCard, 0, `${name}: a node holds whole cards`);
      assert.ok(['GPU', 'NPU', 'die'].includes(hw.unit), `${name}.unit`);
    }
  });

  test('every key and alias names one profile', () => {
    const names = hardwareNames().flatMap((key) => [key, ...getHardware(key).aliases]);
    assert.equal(new Set(names).size, names.length, names.join(' '));
  });

  test('an Ascend 910C entry is one die, two to a card', () => {
    const die = getHardware('910c');
    assert.equal(die.key, 'ascend-910c');
    assert.equal(die.hbmGB, 64);
    assert.equal(die.family, 'ascend');
    assert.equal(die.devicesPerCard, 2);
    assert.equal(die.unit, 'die');
    assert.equal(getHardware('910B').key, 'ascend-910b');
  });

  test('A100: a100-80gb names the 80 GB part; the 40 GB part shares its compute, not its aliases', () => {
    assert.equal(getHardware('a100-80gb').key, 'a100');
    const small = getHardware('a100-40gb');
    assert.deepEqual([small.hbmGB, small.hbmTBs, small.bf16Tflops, small.fp8Tflops, small.arch, small.aliases], [40, 1.555, 312, 0, 'ampere', []]);
  });

  test('a GB200 NVL72 rack is one scale-up domain of 72; an L40S has no NVLink', () => {
    assert.equal(getHardware('gb200').devicesPerNode, 72);
    assert.ok(getHardware('l40s').scaleUpGBs < getHardware('a100').scaleUpGBs / 5);
  });

  test('unknown hardware names the fix', () => {
    assert.throws(() => getHardware('tpu-v5'), (e: unknown) => e instanceof UserError && /--hardware .*--hardware-spec FILE\.json/.test(e.message));
  });

  test('a free-text label finds the profile it names: the longest key or alias, as whole words', () => {
    const cases: Array<[string, string | undefined]> = [
      ['Atlas 800I A3', 'ascend-910c'],
      ['atlas800ta3', 'ascend-910c'],
      ['ascend-a3', 'ascend-910c'],
      ['Ascend 910C', 'ascend-910c'],
      ['8 x H800', 'h800'],
      ['H20', 'h20'],
      ['H200', 'h200'],
      ['A100 40GB', 'a100-40gb'],
      ['A100-80GB SXM', 'a100'],
      ['GB200 NVL72', 'gb200'],
      ['B200', 'b200'],
      ['MI355X', 'mi355x'],
      ['8x MI350X', 'mi350x'],
      ['GB300 NVL72', 'gb300'],
      ['B300', 'b300'],
      ['RTX PRO 6000 Blackwell Server Edition', 'rtx-pro-6000'],
      ['rtx_pro_6000', 'rtx-pro-6000'],
      ['tpu-v5', undefined],
      ['', undefined],
    ];
    for (const [label, key] of cases) assert.equal(hardwareForLabel(label)?.key, key, label);
  });

  test('8-bit math falls back to the INT8 peak where FP8 is missing', () => {
    assert.equal(mathPeak(getHardware('ascend-910c'), 8), 780e12);
    assert.equal(mathPeak(getHardware('a100'), 8), 624e12);
    assert.equal(mathPeak(getHardware('h100'), 8), 1979e12);
    assert.equal(mathPeak(getHardware('h100'), 16), 989e12);
  });
});

describe('identifyModel', () => {
  const cases: Array<[string, string]> = [
    ['/root/.cache/modelscope/hub/models/DeepSeek-V3.2-Exp-W8A8', 'deepseek-v3.2-exp'],
    ['Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot', 'qwen3-coder-480b-a35b'],
    ['deepseek-ai/DeepSeek-V3.2-Exp', 'deepseek-v3.2-exp'],
    ['deepseek-ai/DeepSeek-V3.2', 'deepseek-v3.2'],
    ['qwen2.5-0.5b', 'qwen2.5-0.5b'],
    ['/mnt/weka/home/user/models/qwen2.5-0.5b', 'qwen2.5-0.5b'],
    ['/hf/models--deepseek-ai--DeepSeek-R1/snapshots/abc123', 'deepseek-v3'],
    ['Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', 'qwen3-235b-a22b'],
    ['deepseek-ai/DeepSeek-R1-0528', 'deepseek-v3'],
    ['DeepSeek-R1-W4A8', 'deepseek-v3'],
    ['deepseek-ai/DeepSeek-V3.1-Terminus', 'deepseek-v3'],
    ['Qwen3-235B-A22B-W8A8', 'qwen3-235b-a22b'],
    ['Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8', 'qwen3-coder-480b-a35b'],
    ['Meta-Llama/Llama-3.1-70B', 'llama-3.1-70b'],
    ['meta-llama/Meta-Llama-3.1-8B-Instruct', 'llama-3.1-8b'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'llama-3.3-70b'],
    ['meta-llama/Llama-3.1-405B-Instruct-FP8', 'llama-3.1-405b'],
    ['moonshotai/Kimi-K2-Instruct-0905', 'kimi-k2'],
    ['moonshotai/Kimi-K2-Thinking', 'kimi-k2-thinking'],
    ['zai-org/GLM-4.6-FP8', 'glm-4.6'],
    ['zai-org/GLM-4.5', 'glm-4.5'],
    ['zai-org/GLM-4.5-Air-FP8', 'glm-4.5-air'],
    ['MiniMaxAI/MiniMax-M2.5', 'minimax-m2'],
    ['MiniMaxAI/MiniMax-M2', 'minimax-m2'],
    ['openai/gpt-oss-120b', 'gpt-oss-120b'],
    ['openai/gpt-oss-20b', 'gpt-oss-20b'],
    ['mistralai/Mixtral-8x22B-Instruct-v0.1', 'mixtral-8x22b'],
    ['mistralai/Mixtral-8x7B-v0.1', 'mixtral-8x7b'],
    ['google/gemma-3-27b-it', 'gemma-3-27b'],
    ['google/gemma-3-12b-pt', 'gemma-3-12b'],
    ['QWEN/QWEN3-32B-AWQ', 'qwen3-32b'],
    ['Qwen/Qwen3-30B-A3B-Thinking-2507', 'qwen3-30b-a3b'],
    ['Qwen/Qwen3-Coder-30B-A3B-Instruct', 'qwen3-coder-30b-a3b'],
    ['Qwen/Qwen3-Next-80B-A3B-Instruct', 'qwen3-next-80b-a3b'],
    ['Qwen/Qwen3-8B-Base', 'qwen3-8b'],
    ['Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4', 'qwen2.5-7b'],
    ['Qwen/Qwen2.5-72B-Instruct-BF16', 'qwen2.5-72b'],
    ['Qwen/Qwen3-0.6B', 'qwen3-0.6b'],
    ['deepseek-ai/DeepSeek-R1-0528-Qwen3-8B', 'qwen3-8b'],
    ['C:\\models\\Qwen3-14B', 'qwen3-14b'],
    ['/models/Qwen3-32B/checkpoint-500', 'qwen3-32b'],
    ['Qwen/Qwen2.5-VL-3B-Instruct', 'qwen2.5-vl-3b'],
    ['Qwen/Qwen2.5-VL-7B-Instruct', 'qwen2.5-vl-7b'],
    ['Qwen/Qwen2.5-VL-32B-Instruct', 'qwen2.5-vl-32b'],
    ['Qwen/Qwen2.5-VL-72B-Instruct-AWQ', 'qwen2.5-vl-72b'],
    ['Qwen/Qwen3-VL-8B-Thinking', 'qwen3-vl-8b'],
    ['Qwen/Qwen3-VL-30B-A3B-Instruct', 'qwen3-vl-30b-a3b'],
    ['Qwen/Qwen3-VL-235B-A22B-Instruct-FP8', 'qwen3-vl-235b-a22b'],
    ['XiaomiMiMo/MiMo-7B-RL', 'mimo-7b'],
    ['XiaomiMiMo/MiMo-7B-RL-0530', 'mimo-7b'],
    ['XiaomiMiMo/MiMo-7B-SFT', 'mimo-7b'],
  ];
  for (const [path, key] of cases) {
    test(path, () => assert.equal(identifyModel(path).key, key));
  }

  test('a name that extends an alias with more than a variant is another model', () => {
    assert.equal(findModelByName('deepseek-ai/DeepSeek-R1-Distill-Qwen-32B'), null);
    assert.equal(findModelByName('Qwen/Qwen3-30B-A3B')?.key, 'qwen3-30b-a3b');
    assert.equal(findModelByName('Qwen/Qwen3-32B')?.key, 'qwen3-32b');
    assert.notEqual(findModelByName('Qwen/Qwen3-Next-80B-A3B')?.key, 'qwen3-30b-a3b');
  });

  test('--sim-model accepts a key or any name variant', () => {
    assert.equal(identifyModel('/models/x', 'Qwen/Qwen3-8B-FP8').key, 'qwen3-8b');
    assert.equal(identifyModel('/models/x', 'gpt-oss-120b').key, 'gpt-oss-120b');
  });

  test('--sim-model wins over the path', () => {
    assert.equal(identifyModel('/models/my-finetune', 'qwen3-32b').key, 'qwen3-32b');
  });

  test('an unknown model names --sim-model and a --model-path directory with a config.json, in one line', () => {
    assert.throws(
      () => identifyModel('/models/llama-3-8b'),
      (e: unknown) =>
        e instanceof UserError && /--sim-model/.test(e.message) && /--model-path .*config\.json/.test(e.message) && !e.message.includes('\n'),
    );
    assert.throws(() => identifyModel('x', 'nope'), UserError);
  });
});

describe('quantization', () => {
  test('reads the format from name suffixes', () => {
    assert.equal(quantFromName('DeepSeek-V3.2-Exp-W8A8'), 'w8a8');
    assert.equal(quantFromName('Qwen3-32B-FP8'), 'fp8');
    assert.equal(quantFromName('DeepSeek-R1-W4A8'), 'w4a8');
    assert.equal(quantFromName('Qwen2.5-72B-Instruct-AWQ'), 'int4');
    assert.equal(quantFromName('Qwen2.5-7B-Instruct-GPTQ-Int4'), 'int4');
    assert.equal(quantFromName('DeepSeek-R1-NVFP4'), 'nvfp4');
    assert.equal(quantFromName('Qwen3-32B'), null);
  });

  test('the flag wins; modelslim defers to the checkpoint, else W8A8', () => {
    const byName = (flag: string | null, name: string, native: Parameters<typeof resolveQuant>[2]) => resolveQuant(flag, quantFromName(name), native);
    assert.equal(byName('fp8', 'Qwen3-32B', 'bf16').name, 'fp8');
    assert.equal(byName('modelslim', 'DeepSeek-R1-W4A8', 'fp8').name, 'w4a8');
    assert.equal(byName('modelslim', 'Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot', 'bf16').weightBytes, 1);
    assert.equal(byName('modelslim', 'Qwen3-32B', 'bf16').name, 'w8a8');
    assert.equal(byName(null, 'deepseek-ai/DeepSeek-V3', 'fp8').name, 'fp8');
    assert.equal(byName(null, 'Qwen3-32B', 'bf16').weightBytes, 2);
    assert.equal(byName(null, 'openai/gpt-oss-120b', 'mxfp4').name, 'mxfp4');
    assert.equal(resolveQuant('mxfp4', null, 'bf16').name, 'mxfp4');
    assert.throws(() => resolveQuant('bogus', null, 'bf16'), UsageError);
  });

  test('MXFP4 weights cost 4.25 bits; the math is FP4 where the device has FP4 units, else BF16', () => {
    const mxfp4 = resolveQuant(null, 'mxfp4', 'bf16');
    assert.equal(mxfp4.weightBytes, 0.53);
    assert.equal(quantOnHardware(mxfp4, getHardware('b200')).mathBits, 4);
    assert.equal(quantOnHardware(mxfp4, getHardware('h100')).mathBits, 16);
    assert.equal(quantOnHardware(resolveQuant(null, 'fp8', 'bf16'), getHardware('h100')).mathBits, 8);
    assert.equal(quantFromName('gpt-oss-120b-MXFP4'), 'mxfp4');
  });

  test('KV element bytes follow --kv-cache-dtype', () => {
    assert.equal(kvElementBytes(null), 2);
    assert.equal(kvElementBytes('fp8_e4m3'), 1);
    assert.throws(() => kvElementBytes('fp3'), UsageError);
  });
});

describe('architecture sizes (spec §5 table)', () => {
  const model = (key: string) => identifyModel(key);
  test('parameter counts match the published totals within 1%', () => {
    const near = (value: number, expected: number) => assert.ok(Math.abs(value / expected - 1) < 0.01, `${value} vs ${expected}`);
    near(totalParams(model('qwen2.5-0.5b')), 0.494e9);
    near(totalParams(model('qwen3-235b-a22b')), 235e9);
    near(totalParams(model('qwen3-coder-480b')), 480e9);
    near(totalParams(model('deepseek-v3')), 671e9);
    near(activeParams(model('qwen3-235b-a22b')), 21.5e9);
  });

  test('every bundled model names the config it was read from and, where its card gives one, totals within 3% of its published size', () => {
    for (const entry of allModels()) {
      assert.match(entry.source, /huggingface\.co\/[\w.-]+\/[\w.-]+/, entry.key);
      if (entry.publishedParamsB === undefined) continue;
      const ratio = totalParams(entry) / (entry.publishedParamsB * 1e9);
      assert.ok(Math.abs(ratio - 1) < 0.03, `${entry.key}: ${(totalParams(entry) / 1e9).toFixed(2)}B vs ${entry.publishedParamsB}B published`);
      assert.equal(resolveQuant(null, null, entry.nativeQuant).name, entry.nativeQuant, entry.key);
    }
  });

  test('KV bytes per token: GQA splits heads over TP, MLA does not', () => {
    assert.equal(kvBytesPerTokenPerDevice(model('qwen2.5-0.5b'), 2, 1), 12 * 1024);
    assert.equal(kvBytesPerTokenPerDevice(model('qwen3-235b-a22b'), 2, 1), 188 * 1024);
    assert.equal(kvBytesPerTokenPerDevice(model('qwen3-235b-a22b'), 2, 4), 47 * 1024);
    // 4 KV heads over TP 16: one head per device (replicated), never less.
    assert.equal(kvBytesPerTokenPerDevice(model('qwen3-235b-a22b'), 2, 16), 47 * 1024);
    assert.equal(kvBytesPerTokenPerDevice(model('deepseek-v3'), 2, 8), 576 * 2 * 61);
    assert.equal(kvBytesPerTokenPerDevice(model('deepseek-v3.2'), 2, 8), (576 * 2 + 132) * 61);
    assert.equal(kvBytesPerTokenPerDevice(model('deepseek-v3'), 1, 8), 656 * 61);
  });

  test('a window layer with its own pool holds at most its window of KV per request', () => {
    const gptOss = model('gpt-oss-120b');
    const perLayer = 2 * 8 * 64 * 2;
    assert.equal(kvBytesPerRequestPerDevice(gptOss, 2, 1, 100), 36 * 100 * perLayer);
    assert.equal(kvBytesPerRequestPerDevice(gptOss, 2, 1, 10_000), (18 * 10_000 + 18 * 128) * perLayer);
    // SGLang sizes the window pool at 0.8 of the full pool's tokens: 18 + 0.8 · 18 layers per pool token.
    assert.equal(kvPoolBytesPerTokenPerDevice(gptOss, 2, 1), (18 + 0.8 * 18) * perLayer);
    assert.equal(kvPoolBytesPerTokenPerDevice(gptOss, 2, 1, 1), kvBytesPerTokenPerDevice(gptOss, 2, 1));
  });

  test('Gemma 3 window layers share the pool: they keep every token though they attend to 1024', () => {
    const gemma = model('gemma-3-27b');
    assert.equal(kvBytesPerRequestPerDevice(gemma, 2, 1, 10_000), 10_000 * kvBytesPerTokenPerDevice(gemma, 2, 1));
    assert.equal(kvPoolBytesPerTokenPerDevice(gemma, 2, 1), kvBytesPerTokenPerDevice(gemma, 2, 1));
    assert.deepEqual(gemma.slidingWindow, { size: 1024, layers: 52, separatePool: false });
  });

  test('models without windows hold every token in every attention layer', () => {
    const qwen = model('qwen3-32b');
    assert.equal(kvBytesPerRequestPerDevice(qwen, 2, 2, 5000), 5000 * kvBytesPerTokenPerDevice(qwen, 2, 2));
    assert.equal(kvPoolBytesPerTokenPerDevice(qwen, 2, 2), kvBytesPerTokenPerDevice(qwen, 2, 2));
  });
});
