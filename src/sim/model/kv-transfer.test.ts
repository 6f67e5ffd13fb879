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
