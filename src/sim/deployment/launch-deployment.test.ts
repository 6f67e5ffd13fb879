import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { getHardware } from '../../deployment/model/catalog.js';
import { countDevices, deployMode, deploymentDevices } from '../../deployment/deployment.js';
import { deploymentCards, deploymentHardware, describeDeployment, parseDeployment } from './launch-deployment.js';

describe('parseDeployment', () => {
  test('plain launch flags are one PD-mixed instance', () => {
    const deployment = parseDeployment(['--model-path', 'Qwen/Qwen3-32B', '--tp', '4', '--dp', '2', '--hardware', 'ascend-910c'], [], []);
    assert.equal(deployMode(deployment), 'pd-mixed');
    assert.equal(deploymentDevices(deployment), 8);
    assert.equal(deploymentCards(deployment), 4);
    assert.equal(describeDeployment(deployment), 'Qwen3-32B on 8 dies = 4 cards of ascend-910c: PD mixed');
  });

  test('prefill and decode instances share the outer flags; their own flags win; launchers are dropped', () => {
    const deployment = parseDeployment(
      ['--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', 'b200', '--tp', '2'],
      ['python -m sglang.launch_server --tp 8', '--tp 8'],
      ['sglang serve --tp 8 --dp 8 --enable-dp-attention --ep 8'],
    );
    assert.equal(deployMode(deployment), 'pd-separated');
    assert.deepEqual(deployment.instances.map((i) => [i.role, i.config.tpSize, i.config.disaggregationMode]), [
      ['prefill', 8, 'prefill'],
      ['prefill', 8, 'prefill'],
      ['decode', 8, 'decode'],
    ]);
    assert.equal(deployment.instances[2]?.config.enableDpAttention, true);
    assert.equal(deploymentDevices(deployment), 24);
    assert.equal(describeDeployment(deployment), 'DeepSeek-V3.2 on 24 x b200: PD separated (2 prefill, 1 decode)');
  });

  test('a device described by --hardware-spec, shared or inside an instance string, is the one deployed', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'servebench-hw-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'npu.json');
    writeFileSync(file, JSON.stringify({ name: 'Twin NPU', family: 'ascend', bf16Tflops: 300, hbmGB: 64, hbmTBs: 1.6, scaleUpGBs: 200, devicesPerCard: 2, devicesPerNode: 16 }));
    const mixed = parseDeployment(['--model-path', 'Qwen/Qwen3-32B', '--tp', '4', '--dp', '2', '--hardware-spec', file], [], []);
    assert.equal(describeDeployment(mixed), 'Qwen3-32B on 8 NPUs = 4 cards of twin-npu: PD mixed');
    assert.equal(deploymentCards(mixed), 4, 'two devices per card');
    assert.equal(deploymentHardware(mixed).key, 'twin-npu');
    const pd = parseDeployment(['--model-path', 'Qwen/Qwen3-32B', '--hardware', 'h100'], [`--tp 2 --hardware-spec '${file}'`], ['--tp 2']);
    assert.deepEqual(pd.instances.map((i) => i.config.hardwareProfile?.key ?? i.config.hardware), ['twin-npu', 'h100']);
  });

  test('PD separation needs both sides', () => {
    assert.throws(() => parseDeployment(['--model-path', 'm'], ['--tp 1'], []), (e: unknown) => e instanceof UsageError && /both --prefill/.test(e.message));
  });
});

test('devices are counted in both units where a card holds several', () => {
  assert.equal(countDevices(getHardware('h100'), 8), '8 x h100');
  assert.equal(countDevices(getHardware('ascend-910c'), 16), '16 dies = 8 cards of ascend-910c');
  assert.equal(countDevices(getHardware('ascend-910c'), 1), '1 die = 1 card of ascend-910c');
});
