import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../core/errors.js';
import { evaluateSlo, formatSlo, parseSlo } from './slo.js';

describe('parseSlo', () => {
  test('reads means by default, units ms and s, and percentile prefixes in either order', () => {
    const slo = parseSlo('tpot=20ms,ttft=2s,p99-ttft=3s,e2e=1.5s,itl-p95=40');
    assert.deepEqual(slo.targets, [
      { metric: 'tpot', statistic: { kind: 'mean' }, limitMs: 20 },
      { metric: 'ttft', statistic: { kind: 'mean' }, limitMs: 2000 },
      { metric: 'ttft', statistic: { kind: 'percentile', p: 99 }, limitMs: 3000 },
      { metric: 'e2e', statistic: { kind: 'mean' }, limitMs: 1500 },
      { metric: 'itl', statistic: { kind: 'percentile', p: 95 }, limitMs: 40 },
    ]);
  });

  test('accepts median, p99.9, e2el and vLLM-style colons', () => {
    const slo = parseSlo('median-tpot:25,p99.9-e2el=10s');
    assert.deepEqual(slo.targets, [
      { metric: 'tpot', statistic: { kind: 'median' }, limitMs: 25 },
      { metric: 'e2e', statistic: { kind: 'percentile', p: 99.9 }, limitMs: 10000 },
    ]);
    assert.equal(formatSlo(slo), 'median-tpot=25ms,p99.9-e2e=10s');
  });

  for (const bad of ['', 'tpot', 'tpot=fast', 'speed=2s', 'p100-ttft=1s', 'tpot=0ms', 'ttft=1s,mean-ttft=2s', 'p99-mean-ttft=1s']) {
    test(`rejects '${bad}' with a usage error`, () => {
      assert.throws(() => parseSlo(bad), (error: unknown) => error instanceof UsageError && !error.message.includes('\n'));
    });
  }
});

describe('evaluateSlo', () => {
  const slo = parseSlo('tpot=20ms,p99-ttft=2s');
  test('meets when every observed value is within its limit (limits inclusive)', () => {
    const verdict = evaluateSlo(slo, (target) => (target.metric === 'tpot' ? 20 : 1999));
    assert.equal(verdict.met, true);
    assert.deepEqual(verdict.targets.map((t) => t.observedMs), [20, 1999]);
  });
  test('fails on one exceeded target, an unknown value, or failed requests', () => {
    assert.equal(evaluateSlo(slo, (target) => (target.metric === 'tpot' ? 20.5 : 100)).met, false);
    assert.equal(evaluateSlo(slo, (target) => (target.metric === 'tpot' ? 10 : undefined)).met, false);
    assert.equal(evaluateSlo(slo, () => 1, 1).met, false);
  });
});
