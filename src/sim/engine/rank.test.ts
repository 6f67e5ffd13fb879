import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { resolveInstance } from '../model/resolve-instance.js';
import { seededUniform } from '../text/seeded-random.js';
import { newLiveRequest, type LiveRequest } from './live-request.js';
import { Rank } from './rank.js';

const deployment = (...args: string[]) => resolveInstance(parseLaunchArgs(['--model-path', 'qwen2.5-0.5b', '--hardware', 'h100', ...args]).launch);

function live(id: string, promptTokens: number, outputTokens: number): LiveRequest {
  const request = { id, promptTokens, outputTokens, finishReason: 'length' as const, arrivalTime: 0 };
  return { ...newLiveRequest(request, 0, seededUniform(1, 0)), phase: 'waiting' };
}

/** Marks a planned extend as done and moves its requests to the running batch. */
function completePrefill(rank: Rank, items: ReturnType<Rank['planPrefill']>): void {
  for (const item of items) {
    item.live.prefilled += item.newTokens;
    if (item.live.prefilled === item.live.inputTokens) {
      item.live.generated = 1;
      rank.running.push(item.live);
    }
  }
}

describe('Rank admission (PrefillAdder)', () => {
  test('reserves future output of running requests through the new-token ratio', () => {
    const d = deployment('--max-total-tokens', '10000');
    const rank = new Rank(d, d.kvCapacityPerRank);
    rank.waiting.push(live('a', 1000, 4000), live('b', 1000, 4000), live('c', 1000, 4000));
    const first = rank.planPrefill(0);
    // a: 1000 + 4000 ≤ 10000; b would need 5000 more of the remaining 5000: refused (SGLang's >=).
    assert.deepEqual(first.map((i) => i.live.request.id), ['a']);
    completePrefill(rank, first);
    // Now a runs: 9000 free minus 0.7 × 3999 reserved leaves room for b but not c.
    const second = rank.planPrefill(0);
    assert.deepEqual(second.map((i) => i.live.request.id), ['b']);
    assert.equal(rank.waiting.length, 1);
  });

  test('a prompt over the chunk budget is cut, and its rest continues first in the next pass', () => {
    const d = deployment('--chunked-prefill-size', '1000');
    const rank = new Rank(d, d.kvCapacityPerRank);
    rank.waiting.push(live('long', 2500, 10), live('short', 100, 10));
    const passes: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const items = rank.planPrefill(0);
      passes.push(items.map((item) => `${item.live.request.id}:${item.newTokens}`));
      completePrefill(rank, items);
    }
    assert.deepEqual(passes, [['long:1000'], ['long:1000'], ['long:500', 'short:100']]);
    assert.equal(rank.used, 2600);
  });

  test('max running requests bounds admission', () => {
    const d = deployment('--max-running-requests', '2');
    const rank = new Rank(d, d.kvCapacityPerRank);
    for (let i = 0; i < 5; i++) rank.waiting.push(live(`r${i}`, 10, 10));
    assert.equal(rank.planPrefill(0).length, 2);
  });

  test('retraction frees the least advanced request and re-queues it first', () => {
    const d = deployment('--max-total-tokens', '2100');
    const rank = new Rank(d, d.kvCapacityPerRank);
    const a = live('a', 900, 100);
    const b = live('b', 900, 100);
    rank.waiting.push(a, b);
    completePrefill(rank, rank.planPrefill(0));
    assert.equal(rank.running.length, 2);
    a.generated = 50;
    rank.growKv(a, 150);
    rank.growKv(b, 149);
    assert.equal(rank.available(), 1);
    const batch = rank.planDecode(1);
    assert.deepEqual(batch.map((i) => i.live.request.id), ['a']);
    assert.equal(rank.waiting[0], b);
    assert.equal(b.inputTokens, 900 + b.generated);
    assert.equal(rank.retractions, 1);
  });
});
