import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { allGatherSeconds, allReduceSeconds, allToAllSeconds } from './collectives.js';
import { resolveInstance } from './resolve-instance.js';

const a3 = resolveInstance(
  parseLaunchArgs(['--model-path', 'deepseek-ai/DeepSeek-V3.2-Exp', '--hardware', 'ascend-910c', '--tp', '32', '--nnodes', '2']).launch,
);
const GB = 1e9;
/** The fitted start-up latencies and link efficiency the model runs with. */
const alphaAllReduce = a3.hardware.allReduceUs * a3.efficiency.family.collectiveLatency * 1e-6;
const alphaAllToAll = a3.hardware.allToAllUs * a3.efficiency.family.collectiveLatency * 1e-6;
const linkEfficiency = a3.efficiency.link;

describe('collectives', () => {
  test('a group of one moves nothing', () => {
    assert.equal(allReduceSeconds(a3, GB, 1), 0);
    assert.equal(allGatherSeconds(a3, GB, 1), 0);
    assert.equal(allToAllSeconds(a3, GB, 1), 0);
  });

  test('inside a node: ring all-reduce over the scale-up link, all-gather half of it', () => {
    // A3 die: HCCS 196 GB/s at the link efficiency, plus one start-up latency.
    const link = 196 * GB * linkEfficiency;
    assert.ok(Math.abs(allReduceSeconds(a3, GB, 16) - (alphaAllReduce + ((2 * 15) / 16) * (GB / link))) < 1e-12);
    assert.ok(Math.abs(allGatherSeconds(a3, GB, 16) - (alphaAllReduce + (15 / 16) * (GB / link))) < 1e-12);
  });

  test('across nodes: hierarchical, only a 1/local shard crosses each NIC', () => {
    const inNode = allReduceSeconds(a3, GB, 16);
    const twoNodes = allReduceSeconds(a3, GB, 32);
    // Cross-node phase: 2·(1/2)·(1 GB / 16) over 200 Gb/s RoCE per die, plus a doubled α.
    const nic = 25 * GB * linkEfficiency;
    assert.ok(Math.abs(twoNodes - (inNode + alphaAllReduce + GB / 16 / nic)) < 1e-12);
    // A flat ring over the NIC would move 2·31/32 of the gigabyte through it: far slower.
    assert.ok(twoNodes < 0.5 * ((2 * 31) / 32) * (GB / nic));
  });

  test('all-to-all across two nodes: half the peers are behind the NIC, which sets the time', () => {
    const nic = 25 * GB * linkEfficiency;
    const t = allToAllSeconds(a3, GB, 32);
    assert.ok(Math.abs(t - (2 * alphaAllToAll + (GB * 16) / 31 / nic)) < 1e-12);
    assert.ok(allToAllSeconds(a3, GB, 16) < 0.6 * t, 'in-node all-to-all runs on HCCS');
  });
});
