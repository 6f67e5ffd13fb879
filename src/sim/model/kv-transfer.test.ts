import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { resolveInstance } from './resolve-instance.js';
import { kvSendSeconds, kvSendSide, kvTransferSeconds, kvTransferSecondsFrom } from './kv-transfer.js';

const a3 = (...args: string[]) =>
  resolveInstance(
    parseLaunchArgs(['--model-path', 'DeepSeek-V3.2-Exp-W8A8', '--hardware', 'ascend-910c', '--quantization', 'modelslim', '--mem-fraction-static', '0.8', ...args]).launch,
  );

describe('kvTransferSeconds', () => {
  const prefillTp = a3('--tp', '32', '--nnodes', '2');
  const prefillCp = a3('--tp', '32', '--nnodes', '2', '--enable-nsa-prefill-context-parallel');
  const decode = a3('--tp', '32', '--nnodes', '2', '--dp', '8', '--enable-dp-attention', '--moe-a2a-backend', 'deepep');

  test('a decode die receives its own copy of the MLA latents over its NIC: that end sets the time', () => {
    const bytes = 64_000 * decode.kvBytesPerTokenPerDevice;
    const expected = 0.005 + bytes / (25e9 * 0.7);
    assert.ok(Math.abs(kvTransferSeconds(prefillCp, decode, 64_000) - expected) < 1e-9);
  });

  test('context parallel spreads the sending over the group; time grows with the prompt', () => {
    const gqaDecode = resolveInstance(parseLaunchArgs(['--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '8']).launch);
    const gqaPrefill = resolveInstance(parseLaunchArgs(['--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '1']).launch);
    // One prefill GPU holds every KV head and sends them all; each decode GPU receives one head's worth.
    assert.ok(kvTransferSeconds(gqaPrefill, gqaDecode, 8000) > kvTransferSeconds(gqaDecode, gqaDecode, 8000));
    assert.ok(kvTransferSeconds(prefillTp, decode, 64_000) >= kvTransferSeconds(prefillCp, decode, 64_000));
    assert.ok(kvTransferSeconds(prefillCp, decode, 64_000) > kvTransferSeconds(prefillCp, decode, 1000));
  });

  test("the prefill's half, served to a decode in another process, gives the same time; sending alone takes no longer", () => {
    const send = kvSendSide(prefillCp);
    assert.equal(kvTransferSecondsFrom(send, decode, 64_000), kvTransferSeconds(prefillCp, decode, 64_000));
    assert.ok(kvSendSeconds(send, 64_000) <= kvTransferSeconds(prefillCp, decode, 64_000));
  });
});

describe('the transfer engine and its NICs', () => {
  const h100 = (...args: string[]) => resolveInstance(parseLaunchArgs(['--model-path', 'Qwen/Qwen3-32B', '--hardware', 'h100', '--tp', '8', ...args]).launch);

  test('every RDMA engine moves the KV over the NICs alike; fake moves none and waits for nothing', () => {
    const mooncake = kvTransferSeconds(h100(), h100(), 8000);
    assert.ok(mooncake > 0);
    for (const backend of ['nixl', 'mori', 'mooncake']) {
      assert.equal(kvTransferSeconds(h100('--disaggregation-transfer-backend', backend), h100('--disaggregation-transfer-backend', backend), 8000), mooncake);
    }
    const fake = h100('--disaggregation-transfer-backend', 'fake');
    assert.equal(kvTransferSeconds(fake, fake, 8000), 0);
    assert.deepEqual([kvSendSide(fake).sentBytesPerToken, kvSendSide(fake).latencySec], [0, 0]);
  });

  test('fewer NICs than devices on a node share their bandwidth: the bytes take that much longer', () => {
    const latency = kvSendSide(h100()).latencySec;
    const allNics = kvTransferSeconds(h100(), h100(), 8000) - latency;
    const oneNic = h100('--disaggregation-ib-device', 'mlx5_0');
    assert.ok(Math.abs(kvTransferSeconds(oneNic, oneNic, 8000) - latency - 8 * allNics) < 1e-12);
    // Two NICs named for the prefill only: its sending end is the slower one, at a quarter of the bandwidth.
    const twoNics = h100('--disaggregation-ib-device', 'mlx5_0,mlx5_1');
    assert.ok(Math.abs(kvTransferSeconds(twoNics, h100(), 8000) - latency - 4 * allNics) < 1e-12);
    // A JSON map of devices to NICs counts the NICs it names; naming at least one per device changes nothing.
    const mapped = h100('--disaggregation-ib-device', JSON.stringify({ 0: 'mlx5_0', 1: 'mlx5_0', 2: 'mlx5_1', 3: 'mlx5_1', 4: 'mlx5_2', 5: 'mlx5_2', 6: 'mlx5_3', 7: 'mlx5_3' }));
    assert.ok(Math.abs(kvTransferSeconds(mapped, mapped, 8000) - latency - 2 * allNics) < 1e-12);
    const eight = h100('--disaggregation-ib-device', Array.from({ length: 8 }, (_, i) => `mlx5_${i}`).join(','));
    assert.equal(kvTransferSeconds(eight, eight, 8000), kvTransferSeconds(h100(), h100(), 8000));
  });

  test('an unknown engine is refused with the choices', () => {
    assert.throws(() => h100('--disaggregation-transfer-backend', 'rdma'), /--disaggregation-transfer-backend.*mooncake/);
  });
});
