import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../types.js';
import { bestPerConfiguration, groupByLatencyClass, parseClasses } from './best-practice.js';
import { deriveCards, deriveDatasetLabel, deriveDeployMode, deriveHardware, deriveQuantization, formatLength, instanceFacts } from './run-facts.js';

function run(partial: Partial<RunRecord>): RunRecord {
  return {
    id: 'abcdef012345', recordedAt: '', startedAt: null, model: null, toolVersion: null,
    source: { kind: 'ingest', file: null, contentHash: 'h' }, args: null, metrics: {}, serverInfo: null, environment: {},
    labels: {}, recipe: null, warnings: [], requestCount: 0, mode: 'measured', ...partial,
  };
}

const instance = (role: 'mixed' | 'prefill' | 'decode' | 'router', config: Record<string, unknown>) => ({ role, launcher: 'sglang serve', config, flags: {} });

test('lengths and dataset labels', () => {
  assert.deepEqual([3500, 1500, 1024, 65536, 64000, 3000, 64, 2048].map(formatLength), ['3.5K', '1.5K', '1K', '64K', '64K', '3K', '64', '2K']);
  assert.equal(deriveDatasetLabel(run({ args: { dataset_name: 'random', random_input_len: 3500, random_output_len: 1500 } })), '3.5K-1.5K');
  assert.equal(deriveDatasetLabel(run({ args: { dataset_name: 'sharegpt', random_input_len: 1024, random_output_len: 1024 } })), 'sharegpt');
  assert.equal(deriveDatasetLabel(run({ labels: { dataset: '3.5K-1.5K' }, args: { random_input_len: 1, random_output_len: 1 } })), '3.5K-1.5K');
});

test('cards: label first, else recipe devices, Ascend A3 counting two dies per card', () => {
  assert.deepEqual(deriveCards(run({ labels: { cards: '16' } })), { value: 16, how: 'label cards=16' });
  const pd = { instances: [instance('prefill', { tpSize: 32 }), instance('decode', { tpSize: 32, dpSize: 8, enableDpAttention: true }), instance('router', {})], env: {}, origin: 'file' };
  assert.equal(deriveCards(run({ recipe: pd, labels: { hardware: 'ascend-a3' } }))!.value, 32);
  assert.equal(deriveCards(run({ recipe: pd, labels: { hardware: 'H800' } }))!.value, 64);
  assert.deepEqual(deriveCards(run({ recipe: pd, labels: { hardware: 'Atlas 800I A3' } })), {
    value: 32, how: 'recipe: prefill 32 + decode 32 dies = 32 Atlas 800I A3 cards (2 dies per card)',
  });
  assert.equal(deriveCards(run({ recipe: pd, labels: { hardware: 'some new NPU' } }))!.value, 64, 'an unknown label: one device per card');
  const replicas = { instances: [instance('mixed', { tpSize: 2, dpSize: 4 })], env: {}, origin: 'file' };
  assert.equal(deriveCards(run({ recipe: replicas }))!.value, 8, 'dp without dp-attention replicates tp');
  assert.equal(deriveCards(run({})), null);
  assert.equal(deriveDeployMode(run({ recipe: pd })), 'PD separation');
  assert.equal(deriveDeployMode(run({ recipe: replicas })), 'PD mixed');
  assert.equal(deriveDeployMode(run({})), null);
});

test("hardware, cards and deploy mode from the device a server reported; the user's label wins", () => {
  const a3 = { key: 'ascend-910c', name: 'Huawei Ascend 910C', unit: 'die', devicesPerCard: 2 };
  const reported = (config: Record<string, unknown>, role: 'mixed' | 'prefill' | 'decode' = 'mixed') => ({ ...instance(role, config), launcher: 'servebench-sim 0.1.0', hardware: a3, weightFormat: 'bf16' });
  const sim = { instances: [reported({ tpSize: 4 })], env: {}, origin: "the server's /get_server_info" };
  assert.deepEqual(deriveHardware(run({ recipe: sim })), { value: 'ascend-910c', how: 'Huawei Ascend 910C, reported by the server' });
  assert.deepEqual(deriveCards(run({ recipe: sim })), { value: 2, how: 'recipe: mixed 4 dies = 2 ascend-910c cards (2 dies per card)' });
  assert.deepEqual(deriveHardware(run({ recipe: sim, labels: { hardware: 'my-a3' } })), { value: 'my-a3', how: 'label' });
  assert.deepEqual(deriveCards(run({ recipe: sim, labels: { hardware: 'H800' } })), { value: 4, how: 'recipe: mixed 4 GPUs' }, "a catalogued label's device counts");
  const oneGpu = { ...sim, instances: [{ ...reported({ tpSize: 1 }), hardware: { key: 'h100', name: 'NVIDIA H100', unit: 'GPU', devicesPerCard: 1 } }] };
  assert.deepEqual(deriveCards(run({ recipe: oneGpu })), { value: 1, how: 'recipe: mixed 1 GPU' });
  assert.equal(deriveHardware(run({})), null);
  const pd = { ...sim, instances: [reported({ tpSize: 8 }, 'prefill'), reported({ tpSize: 8 }, 'decode')] };
  assert.equal(deriveDeployMode(run({ recipe: pd })), 'PD separation');
  // bench runs against the sim were labelled deploy=simulated: that is their mode, not their deploy mode.
  assert.equal(deriveDeployMode(run({ recipe: sim, labels: { deploy: 'simulated' } })), 'PD mixed');
  assert.deepEqual(deriveQuantization(run({ model: 'Qwen3-8B', recipe: sim })), { value: 'bf16', how: 'weights reported by the server' });
  assert.deepEqual(instanceFacts(reported({ tpSize: 4 })), { tpSize: 4, hardware: 'ascend-910c', weights: 'bf16' });
});

test('quantization: label, model-name format, then launch flag', () => {
  assert.equal(deriveQuantization(run({ labels: { quantization: 'W4A8' }, model: 'x-w8a8' }))!.value, 'W4A8');
  assert.deepEqual(deriveQuantization(run({ model: '/m/Qwen3-Coder-480B-A35B-Instruct-w8a8-QuaRot' })), { value: 'W8A8', how: 'model name' });
  const fp8 = { instances: [instance('mixed', { quantization: 'fp8' })], env: {}, origin: 'file' };
  assert.deepEqual(deriveQuantization(run({ model: 'Qwen3-8B', recipe: fp8 })), { value: 'fp8', how: 'launch --quantization' });
  assert.equal(deriveQuantization(run({ model: 'DeepSeek-V3.2-Exp' })), null);
});

test('latency classes: parsing, bounds, grouping and ordering', () => {
  assert.deepEqual(parseClasses('low-latency:<=20,balanced:<=50ms,high-throughput'), [
    { name: 'low-latency', maxTpotMs: 20 }, { name: 'balanced', maxTpotMs: 50 }, { name: 'high-throughput', maxTpotMs: null },
  ]);
  assert.throws(() => parseClasses('a,b:<=3'), /only the last class/);
  assert.throws(() => parseClasses('a:>5'), /cannot read/);
  const runs = [
    run({ id: 'a1', model: 'M', metrics: { mean_tpot_ms: 10, output_throughput: 100 }, labels: { cards: '4' } }),
    run({ id: 'a2', model: 'M', metrics: { mean_tpot_ms: 15, output_throughput: 400 }, labels: { cards: '4' } }),
    run({ id: 'a3', model: 'M', metrics: { mean_tpot_ms: 80, output_throughput: 1 } }),
    run({ id: 'a4', model: 'M', metrics: {} }),
  ];
  const groups = groupByLatencyClass(runs, parseClasses('fast:<=20'));
  assert.deepEqual(groups.map((g) => [g.latencyClass.name, g.rows.map((r) => [r.runId, r.outputPerCard])]), [
    ['fast', [['a2', 100], ['a1', 25]]],
    ['unclassified', [['a3', null], ['a4', null]]],
  ]);
});

test('best per configuration: one row per model, hardware, cards, deploy mode, workload and quantization in each class', () => {
  const args = { dataset_name: 'random', random_input_len: 1024, random_output_len: 1024 };
  const runs = [
    run({ id: 'aaaa00000001', model: 'Qwen/Qwen3-8B', args, labels: { hardware: 'h100', cards: '1' }, metrics: { mean_tpot_ms: 10, output_throughput: 900 } }),
    run({ id: 'aaaa00000002', model: 'Qwen/Qwen3-8B', args, labels: { hardware: 'h100', cards: '1' }, metrics: { mean_tpot_ms: 12, output_throughput: 1000 } }),
    run({ id: 'aaaa00000003', model: 'Qwen/Qwen3-8B', args, labels: { hardware: 'h200', cards: '1' }, metrics: { mean_tpot_ms: 11, output_throughput: 950 } }),
  ];
  const [group] = bestPerConfiguration(groupByLatencyClass(runs, parseClasses('fast:<=50')));
  assert.deepEqual(group!.rows.map((row) => [row.runId, row.alternatives]), [['aaaa00000002', 1], ['aaaa00000003', 0]]);
});
