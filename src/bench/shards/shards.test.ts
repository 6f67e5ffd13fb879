import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RequestOutput } from '../types.js';
import { offsetFromProbes } from './clock.js';
import { outputsShiftedBy } from '../workers/clock.js';
import { mergeShardItems, ShardMergeError } from './merge.js';
import { resolveShardRole } from './role.js';
import { concurrencySlices, ownRequests, scheduleFingerprint, shardOfRequest, splitNotice } from './split.js';
import { formatShardSection, shardSummary } from './summary.js';

const output = (startTime: number): RequestOutput => ({
  generatedText: 'x', success: true, latency: 0.5, ttft: 0.1, itl: [0.01], textChunks: ['x'], promptLen: 4, error: '',
  outputLen: 2, startTime, queueTime: 0, failureCause: null,
});

describe('the static split', () => {
  test('request i goes to shard (i mod K) + 1, and the shards together send every request once', () => {
    const schedule = Array.from({ length: 10 }, (_, index) => ({ index }));
    const parts = [1, 2, 3].map((rank) => ownRequests(schedule, rank, 3).map((item) => item.index));
    assert.deepEqual(parts, [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]);
    assert.equal(shardOfRequest(7, 4), 4);
  });

  test('--max-concurrency is divided as evenly as whole slots allow; too few slots are refused', () => {
    assert.deepEqual(concurrencySlices(10, 4), [3, 3, 2, 2]);
    assert.deepEqual(concurrencySlices(832, 4), [208, 208, 208, 208]);
    assert.deepEqual(concurrencySlices(null, 2), [null, null]);
    assert.throws(() => concurrencySlices(3, 4), /--max-concurrency 3 cannot be divided among 4 shards/);
    assert.match(splitNotice(4, 10, [3, 3, 2, 2]), /\(3, 3, 2, 2 requests\); --max-concurrency 10 divided among them: 3, 3, 2, 2/);
  });

  test('the fingerprint changes with any request, its time or its LoRA', () => {
    const schedule = [0, 1].map((index) => ({ index, sendAt: index * 0.1, row: { promptLen: 5, outputLen: 3 }, loraName: null }));
    const base = scheduleFingerprint(schedule);
    assert.equal(scheduleFingerprint(schedule.map((item) => ({ ...item }))), base);
    assert.notEqual(scheduleFingerprint([schedule[0]!, { ...schedule[1]!, sendAt: 0.1000001 }]), base);
    assert.notEqual(scheduleFingerprint([schedule[0]!, { ...schedule[1]!, row: { promptLen: 6, outputLen: 3 } }]), base);
    assert.notEqual(scheduleFingerprint([schedule[0]!, { ...schedule[1]!, loraName: 'a' }]), base);
  });
});

describe('the clock offset', () => {
  test('the probe with the least round trip gives the offset, within half of it', () => {
    const offset = offsetFromProbes([
      { sentAt: 100, shardAt: 130.02, receivedAt: 100.01 },
      { sentAt: 101, shardAt: 131.001, receivedAt: 101.002 },
      { sentAt: 102, shardAt: 132.5, receivedAt: 103 },
    ]);
    assert.ok(Math.abs(offset.offsetS - 30) < 1e-9, String(offset.offsetS));
    assert.ok(Math.abs(offset.boundS - 0.001) < 1e-9);
    assert.equal(offset.probes, 3);
  });

  test("outputs move to the coordinator's clock by start time only; never-sent stays 0", () => {
    const [moved, unsent] = outputsShiftedBy([output(5), output(0)], -2.5);
    assert.equal(moved!.startTime, 2.5);
    assert.equal(moved!.ttft, 0.1);
    assert.equal(unsent!.startTime, 0);
  });
});

describe('the exact merge', () => {
  const items = (indices: number[]) => indices.map((index) => ({ index, outputs: [output(1 + index)] }));

  test('every index once, in index order', () => {
    const merged = mergeShardItems(5, 2, [{ rank: 2, items: items([3, 1]) }, { rank: 1, items: items([0, 4, 2]) }], false);
    assert.deepEqual(merged.map((item) => item.index), [0, 1, 2, 3, 4]);
  });

  test('a duplicate index is refused, naming both shards', () => {
    assert.throws(
      () => mergeShardItems(4, 2, [{ rank: 1, items: items([0, 2]) }, { rank: 2, items: items([1, 3]) }, { rank: 1, items: items([2]) }], false),
      (error: unknown) => error instanceof ShardMergeError && /request 2 was reported twice \(by shard 1 and shard 1\)/.test(error.message),
    );
  });

  test('a missing index is refused unless a stop signal ended the run', () => {
    const shards = [{ rank: 1, items: items([0]) }, { rank: 2, items: items([1, 3]) }];
    assert.throws(() => mergeShardItems(4, 2, shards, false), /requests 2 were reported by no shard: refusing to merge an incomplete run as whole/);
    assert.deepEqual(mergeShardItems(4, 2, shards, true).map((item) => item.index), [0, 1, 3]);
  });

  test("another shard's request, or one beyond the run, is refused", () => {
    assert.throws(() => mergeShardItems(4, 2, [{ rank: 1, items: items([1]) }], true), /shard 1 reported request 1, which is shard 2's/);
    assert.throws(() => mergeShardItems(4, 2, [{ rank: 1, items: items([6]) }], true), /which the run's 4 requests do not have/);
  });
});

describe('the role', () => {
  const flags = { shards: 4, shardRank: null, coordinator: null };
  test('alone: this host runs them all; a rank from the flag, an Indexed Job or SLURM', () => {
    assert.deepEqual(resolveShardRole(flags, {}), { kind: 'local' });
    assert.deepEqual(resolveShardRole({ ...flags, shardRank: 0, coordinator: 'h:1' }, {}), { kind: 'coordinator', address: 'h:1' });
    assert.deepEqual(resolveShardRole({ ...flags, coordinator: 'h:1' }, { JOB_COMPLETION_INDEX: '3' }), { kind: 'shard', rank: 3, address: 'h:1' });
    assert.deepEqual(resolveShardRole({ ...flags, coordinator: 'h:1' }, { SLURM_PROCID: '2', SLURM_NTASKS: '5' }), { kind: 'shard', rank: 2, address: 'h:1' });
    assert.equal(resolveShardRole({ shards: null, shardRank: null, coordinator: null }, { JOB_COMPLETION_INDEX: '1' }), null);
  });

  test('what cannot work is refused in one line', () => {
    assert.throws(() => resolveShardRole({ ...flags, coordinator: 'h:1' }, { SLURM_PROCID: '2', SLURM_NTASKS: '4' }), /SLURM_NTASKS=4 but --shards 4 needs 5 tasks/);
    assert.throws(() => resolveShardRole({ ...flags, shardRank: 5, coordinator: 'h:1' }, {}), /--shard-rank 5 is beyond --shards 4/);
    assert.throws(() => resolveShardRole({ ...flags, shardRank: 1 }, {}), /give --coordinator HOST:PORT/);
    assert.throws(() => resolveShardRole({ ...flags, coordinator: 'h:1' }, {}), /--coordinator needs a rank/);
    assert.throws(() => resolveShardRole({ shards: null, shardRank: 1, coordinator: null }, {}), /--shard-rank needs --shards K/);
    assert.throws(() => resolveShardRole(flags, { JOB_COMPLETION_INDEX: 'x' }), /JOB_COMPLETION_INDEX='x' is not a pod index/);
  });
});

describe('the per-shard section', () => {
  test("each shard's requests, send lag, clock offset and its own self-check", () => {
    const sent = { ...output(1), sendPhases: { wait: 0.001, connect: 0, write: 0.0005 }, stampLatenessBound: 0.0004 };
    const summary = shardSummary({
      rank: 2, host: 'node-b', pid: 7, maxConcurrency: 208, offset: { offsetS: 0.0123, boundS: 0.0002, probes: 8 },
      outputs: [sent, sent], loopHealth: [{ delayP50Ms: 0.1, delayP99Ms: 0.2, delayMaxMs: 0.5, cpuSeconds: 0.1, wallSeconds: 1 }],
    });
    assert.equal(summary.requests, 2);
    assert.ok(Math.abs(summary.sendLagP99Ms! - 1.5) < 1e-9);
    assert.ok(Math.abs(summary.clockOffsetMs - 12.3) < 1e-9);
    assert.equal(summary.saturated, false);
    const text = formatShardSection([summary]);
    assert.match(text, /shard 2 \(node-b, pid 7\): 2 requests, concurrency 208, send lag p99 1\.50 ms, clock offset \+12\.30 ± 0\.20 ms/);
    assert.match(text, /Client self-check: timing error <= 0\.40 ms/);
  });
});
