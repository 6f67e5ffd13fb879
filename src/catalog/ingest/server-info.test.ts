import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recipeFromServerInfo, SERVER_INFO_ORIGIN, serverInfoSettings } from './server-info.js';

/** SGLang's /get_server_info as it reports a PD-mixed server: every ServerArgs field, None as null, no device model. */
const SGLANG = {
  model_path: '/models/Qwen3-8B', served_model_name: 'qwen', tp_size: 2, dp_size: 1, ep_size: 1, pp_size: 1, enable_dp_attention: false,
  quantization: null, kv_cache_dtype: 'auto', chunked_prefill_size: 8192, mem_fraction_static: 0.85, disaggregation_mode: 'null', device: 'cuda',
  host: '0.0.0.0', log_level: 'info', max_total_num_tokens: 500000, internal_states: [{ avg_spec_accept_length: null }], version: '0.5.6',
};

/** The sim's body: SGLang's fields, and under servebench what it simulates. */
const SIM = {
  ...SGLANG, model_path: 'Qwen/Qwen3-8B', served_model_name: 'Qwen/Qwen3-8B', tp_size: 4, device: 'npu', version: 'servebench-sim 0.1.0',
  servebench: {
    hardware: { id: 'ascend-910c', name: 'Huawei Ascend 910C', family: 'ascend', unit: 'die', devices_per_card: 2, devices_per_node: 16 },
    devices: 4, cards: 2, weight_format: 'bf16', raw_args: ['--model-path', 'Qwen/Qwen3-8B', '--hardware', 'ascend-910c', '--tp', '4', '--api-key', 'sk-1'],
  },
};

test('a real SGLang server: the settings it reports, under their deployment fields; nothing it does not report', () => {
  const recipe = recipeFromServerInfo(SGLANG)!;
  assert.equal(recipe.origin, SERVER_INFO_ORIGIN);
  assert.deepEqual(recipe.instances, [{
    role: 'mixed',
    launcher: 'sglang 0.5.6',
    config: {
      modelPath: '/models/Qwen3-8B', servedModelName: 'qwen', tpSize: 2, dpSize: 1, epSize: 1, ppSize: 1, enableDpAttention: false,
      kvCacheDtype: 'auto', chunkedPrefillSize: 8192, memFractionStatic: 0.85, disaggregationMode: 'null', device: 'cuda',
    },
    flags: {},
  }]);
});

test("the sim: SGLang's fields, the device it simulates, its weights and its flags as given, secrets redacted", () => {
  const [instance] = recipeFromServerInfo(SIM)!.instances;
  assert.equal(instance!.launcher, 'servebench-sim 0.1.0');
  assert.equal(instance!.config.tpSize, 4);
  assert.deepEqual(instance!.hardware, { key: 'ascend-910c', name: 'Huawei Ascend 910C', unit: 'die', devicesPerCard: 2 });
  assert.equal(instance!.weightFormat, 'bf16');
  assert.deepEqual(instance!.flags, { '--model-path': 'Qwen/Qwen3-8B', '--hardware': 'ascend-910c', '--tp': '4', '--api-key': '<redacted>' });
});

test("a PD router's body lists its servers: one instance each, in the role it lists them under", () => {
  const prefill = { ...SIM, disaggregation_mode: 'prefill' };
  const decode = { ...SIM, disaggregation_mode: 'decode', dp_size: 2 };
  const recipe = recipeFromServerInfo({ internal_states: [], prefill: [prefill, prefill], decode: [decode] })!;
  assert.deepEqual(recipe.instances.map((i) => [i.role, i.config.dpSize, i.hardware?.key]), [['prefill', 1, 'ascend-910c'], ['prefill', 1, 'ascend-910c'], ['decode', 2, 'ascend-910c']]);
  // A lone prefill or decode server says its role through its disaggregation mode.
  assert.equal(recipeFromServerInfo(decode)!.instances[0]!.role, 'decode');
});

test("an older PD router's answer (its first prefill worker's body) with the workers bench read beside it: the workers, not the answer", () => {
  const prefill = { ...SIM, disaggregation_mode: 'prefill' };
  const decode = { ...SIM, disaggregation_mode: 'decode', dp_size: 2 };
  const recipe = recipeFromServerInfo({ ...prefill, prefill: [prefill], decode: [decode], regular: [] })!;
  assert.deepEqual(recipe.instances.map((i) => [i.role, i.config.dpSize]), [['prefill', 1], ['decode', 2]]);
});

test("a plain router's workers, listed under `regular`, each stand for themselves", () => {
  const recipe = recipeFromServerInfo({ router_manager: true, prefill: [], decode: [], regular: [SIM, SIM] })!;
  assert.deepEqual(recipe.instances.map((i) => [i.role, i.hardware?.key]), [['mixed', 'ascend-910c'], ['mixed', 'ascend-910c']]);
});

test('a body that states no deployment is none; a value of the wrong type or a malformed device is left out', () => {
  for (const body of [null, 'text', [], { router_manager: true, routers_count: 1, workers_count: 2 }, { version: '0.5.6' }]) assert.equal(recipeFromServerInfo(body), null);
  assert.deepEqual(serverInfoSettings({ tp_size: '8', dp_size: 2.5, enable_dp_attention: 'yes', quantization: '', mem_fraction_static: 0.8 }), { memFractionStatic: 0.8 });
  const malformed = { ...SIM, servebench: { hardware: { id: 'x', name: 'X', unit: 'GPU', devices_per_card: 0 }, weight_format: 7, raw_args: ['--tp', 4] } };
  const [instance] = recipeFromServerInfo(malformed)!.instances;
  assert.deepEqual([instance!.hardware, instance!.weightFormat, instance!.flags], [undefined, undefined, {}]);
});
