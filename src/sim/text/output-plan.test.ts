import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyStopStrings, drawOutputLength, planOutput } from './output-plan.js';
import { seededUniform } from './seeded-random.js';
import type { TokenPool } from './token-pool.js';

const pool: TokenPool = { ids: Int32Array.from([10, 11, 12, 13]), texts: [' alpha', ' beta', ' gamma', ' delta'] };

describe('planOutput', () => {
  test('ignore_eos runs to max_new_tokens with finish length', () => {
    const plan = planOutput(pool, 1, { maxNewTokens: 50, ignoreEos: true, stop: [], requestIndex: 0 });
    assert.equal(plan.tokens, 50);
    assert.equal(plan.pieces.length, 50);
    assert.equal(plan.finishReason, 'length');
  });

  test('is deterministic per (seed, request) and differs across requests', () => {
    const a = planOutput(pool, 1, { maxNewTokens: 40, ignoreEos: false, stop: [], requestIndex: 5 });
    const b = planOutput(pool, 1, { maxNewTokens: 40, ignoreEos: false, stop: [], requestIndex: 5 });
    const c = planOutput(pool, 1, { maxNewTokens: 40, ignoreEos: false, stop: [], requestIndex: 6 });
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.ids, c.ids);
  });

  test('without ignore_eos lengths spread over [1, max] and finish stop below max', () => {
    const random = seededUniform(9, 0);
    const lengths = Array.from({ length: 2000 }, () => drawOutputLength(random, 100, false));
    assert.equal(Math.min(...lengths), 1);
    assert.equal(Math.max(...lengths), 100);
    const mean = lengths.reduce((s, x) => s + x, 0) / lengths.length;
    assert.ok(mean > 45 && mean < 56, `mean ${mean}`);
    const early = planOutput(pool, 1, { maxNewTokens: 1000, ignoreEos: false, stop: [], requestIndex: 1 });
    assert.equal(early.finishReason, early.tokens === 1000 ? 'length' : 'stop');
  });
});

describe('applyStopStrings', () => {
  test('cuts at the earliest match; the matching token is the last generated, its text hidden', () => {
    const plan = { tokens: 4, finishReason: 'length' as const, pieces: [' alpha', ' beta', ' gamma', ' delta'], ids: [10, 11, 12, 13], matchedStop: null };
    const cut = applyStopStrings(plan, ['ta gam', 'delta']);
    assert.equal(cut.tokens, 3);
    assert.equal(cut.finishReason, 'stop');
    assert.equal(cut.matchedStop, 'ta gam');
    assert.equal(cut.pieces.join(''), ' alpha be');
    assert.deepEqual(cut.ids, [10, 11, 12]);
    assert.equal(applyStopStrings(plan, ['zzz']), plan);
  });
});
