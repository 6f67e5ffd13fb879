import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StepProfile } from './step-profile.js';

const decode = (requests: number, context: number) => Array.from({ length: requests }, () => ({ newTokens: 1, context, prefill: false }));

describe('StepProfile', () => {
  test('the typical decode step averages requests per active rank and context per request', () => {
    const profile = new StepProfile();
    profile.record([decode(4, 1000), decode(2, 4000)], 0.02);
    profile.record([decode(6, 1000), []], 0.03);
    const typical = profile.typicalDecode(2)!;
    assert.equal(typical.steps, 2);
    assert.ok(Math.abs(typical.seconds - 0.05) < 1e-12);
    // 3 rank-steps with work over 2 steps round to 2 ranks; 12 requests over them, 4 each.
    assert.equal(typical.ranks.length, 2);
    assert.equal(typical.ranks[0]!.length, 4);
    assert.equal(typical.ranks[0]![0]!.context, (4 * 1000 + 2 * 4000 + 6 * 1000) / 12);
    assert.equal(profile.typicalPrefill(2), null);
  });

  test('a mixed step counts as prefill, and only its prefill work describes the typical prefill', () => {
    const profile = new StepProfile();
    profile.record([[{ newTokens: 3000, context: 0, prefill: true }, ...decode(8, 500)]], 0.2);
    const prefill = profile.typicalPrefill(1)!;
    assert.equal(prefill.ranks[0]!.length, 1);
    assert.deepEqual(prefill.ranks[0]![0], { newTokens: 3000, context: 0, prefill: true });
    assert.equal(profile.typicalDecode(1), null);
  });
});
