import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DecodeBatchStats, PrefillBatchStats, RankStep } from '../engine/rank-step.js';
import { rankTag, SchedulerLog, type DecodeLine, type PrefillLine, type SchedulerShape } from './scheduler-log-lines.js';

const SINGLE: SchedulerShape = { tp: 1, ep: 1, attentionDp: 1, replicas: 1, draftTokens: null };

function prefillStep(time: number, newTokens: number, extra: Partial<PrefillBatchStats> = {}): RankStep {
  return {
    time, instance: 0, rank: 0, kvCapacity: 1000, cudaGraph: false, decode: null,
    prefill: { requests: 1, newTokens, cachedTokens: 0, running: 0, queued: 0, kvTokens: 100, ...extra },
  };
}

function decodeStep(time: number, decode: Partial<DecodeBatchStats> = {}): RankStep {
  return {
    time, instance: 0, rank: 0, kvCapacity: 1000, cudaGraph: true, prefill: null,
    decode: { requests: 2, tokens: 2, verifies: 0, queued: 0, kvTokens: 250, ...decode },
  };
}

describe('scheduler log lines', () => {
  test("a prefill line per extend batch; its input throughput is the previous batch's tokens over the time since that line", () => {
    const log = new SchedulerLog(SINGLE, 40);
    const first = log.observe(prefillStep(0.5, 100)) as PrefillLine[];
    assert.equal(first.length, 1);
    assert.deepEqual([first[0]!.newTokens, first[0]!.inputThroughput, first[0]!.tokenUsage], [100, 0, 0.1]);
    const second = log.observe(prefillStep(2.5, 30, { queued: 3, running: 1 })) as PrefillLine[];
    assert.equal(second[0]!.inputThroughput, 100 / 2);
    assert.deepEqual([second[0]!.queueReqs, second[0]!.runningReqs], [3, 1]);
  });

  test('a decode line every --decode-log-interval decode batches: tokens since the last one over the time since it', () => {
    const log = new SchedulerLog(SINGLE, 3);
    assert.deepEqual(log.observe(decodeStep(1)), []);
    assert.deepEqual(log.observe(decodeStep(2)), []);
    const [line] = log.observe(decodeStep(3, { requests: 4, tokens: 4, queued: 1, kvTokens: 420 })) as DecodeLine[];
    assert.deepEqual([line!.runningReqs, line!.tokens, line!.tokenUsage, line!.queueReqs, line!.accept, line!.cudaGraph], [4, 420, 0.42, 1, null, true]);
    assert.equal(line!.genThroughput, 8 / 3);
    log.observe(decodeStep(4));
    log.observe(decodeStep(5));
    const [next] = log.observe(decodeStep(7)) as DecodeLine[];
    assert.equal(next!.genThroughput, 6 / 4);
  });

  test('an extend batch is not a decode batch; ranks count apart', () => {
    const log = new SchedulerLog(SINGLE, 2);
    const mixed: RankStep = { ...prefillStep(1, 10), decode: { requests: 1, tokens: 1, verifies: 0, queued: 0, kvTokens: 1 } };
    assert.deepEqual(log.observe(mixed).map((l) => l.kind), ['prefill']);
    assert.deepEqual(log.observe(decodeStep(2)), []);
    assert.deepEqual(log.observe({ ...decodeStep(3), rank: 1 }), []);
    assert.deepEqual(log.observe(decodeStep(4)).map((l) => l.kind), ['decode']);
  });

  test('speculative decoding: accept length is tokens per verify pass, accept rate their share of the draft tokens', () => {
    const log = new SchedulerLog({ ...SINGLE, draftTokens: 4 }, 2);
    log.observe(decodeStep(1, { requests: 2, tokens: 5, verifies: 2 }));
    const [line] = log.observe(decodeStep(2, { requests: 2, tokens: 7, verifies: 2 })) as DecodeLine[];
    assert.deepEqual(line!.accept, { length: 3, rate: 0.75 });
  });

  test("ranks are tagged as SGLang prefixes its scheduler processes", () => {
    const dpAttention: SchedulerShape = { tp: 8, ep: 8, attentionDp: 4, replicas: 1, draftTokens: null };
    assert.deepEqual(rankTag(dpAttention, 0, 3), { dp: 3, tp: 6, ep: 6 });
    assert.deepEqual(rankTag({ tp: 4, ep: 1, attentionDp: 1, replicas: 2, draftTokens: null }, 1, 0), { dp: 1, tp: 0, ep: null });
    assert.deepEqual(rankTag({ tp: 2, ep: 1, attentionDp: 1, replicas: 1, draftTokens: null }, 0, 0), { dp: null, tp: 0, ep: null });
    assert.deepEqual(rankTag(SINGLE, 0, 0), { dp: null, tp: null, ep: null });
  });
});
