import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError, UserError } from '../../core/errors.js';
import { getHardware, hardwareForLabel, hardwareNames } from './catalog.js';
import { identifyModel } from './identify.js';
import { kvBytesPerTokenPerDevice, totalParams, activeParams } from './params.js';
import { kvElementBytes, mathPeak, quantFromName, resolveQuant } from './quantization.js';

describe('hardware catalog', () => {
  test('lists every profile the sim accepts, each with a source and positive figures', () => {
    assert.deepEqual(hardwareNames(), [
      'a100', 'a100-40gb', 'l40s', 'h100', 'h200', 'h800', 'h20', 'b200', 'b300', 'gb200', 'mi300x', 'mi325x', 'mi355x', 'ascend-910b', 'ascend-910c',
    ]);
    for (const name of hardwareNames()) {
      const hw = getHardware(name);
      assert.ok(hw.source.length > 20, name);
      for (const field of ['bf16Tflops', 'int8Tops', 'hbmGB', 'hbmTBs', 'scaleUpGBs', 'interNodeGBs', 'devicesPerNode', 'devicesPerCard'] as const) {
        assert.ok(hw[field] > 0, `${name}.${field}`);
      }
      assert.equal(hw.devicesPerNode % hw.devicesPerCard, 0, `${name}: a node holds whole cards`);
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
  ];
  for (const [path, key] of cases) {
    test(path, () => assert.equal(identifyModel(path).key, key));
  }

  test('--sim-model wins over the path', () => {
    assert.equal(identifyModel('/models/my-finetune', 'qwen3-32b').key, 'qwen3-32b');
  });

  test('an unknown model names --sim-model and --model-path', () => {
    assert.throws(
      () => identifyModel('/models/llama-3-8b'),
      (e: unknown) => e instanceof UserError && /--sim-model/.test(e.message) && /--model-path/.test(e.message),
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

  test('the flag wins; modelslim defers to the name, else W8A8', () => {
    assert.equal(resolveQuant('fp8', 'Qwen3-32B', 'bf16').name, 'fp8');
    assert.equal(resolveQuant('modelslim', 'DeepSeek-R1-W4A8', 'fp8').name, 'w4a8');
    assert.equal(resolveQuant('modelslim', 'Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot', 'bf16').weightBytes, 1);
    assert.equal(resolveQuant(null, 'deepseek-ai/DeepSeek-V3', 'fp8').name, 'fp8');
    assert.equal(resolveQuant(null, 'Qwen3-32B', 'bf16').weightBytes, 2);
    assert.throws(() => resolveQuant('bogus', 'x', 'bf16'), UsageError);
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
});
