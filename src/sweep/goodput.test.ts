import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestOutput } from '../bench/types.js';
import { computeGoodput, isGoodRequest } from './goodput.js';
import { measureFromOutputs } from './measures.js';
import { parseSlo } from './slo.js';

function output(ttft: number, latency: number, outputLen: number, success = true): RequestOutput {
  const gaps = Math.max(outputLen - 1, 0);
  return {
    generatedText: '', success, latency, ttft, itl: Array.from({ length: gaps }, () => (latency - ttft) / gaps),
    textChunks: [], promptLen: 10, error: success ? '' : 'boom', outputLen, startTime: 0, queueTime: 0,
    failureCause: success ? null : 'http_5xx',
  };
}

describe('goodput (vLLM definition)', () => {
  const slo = parseSlo('ttft=100ms,tpot=10ms');
  test('a request is good only when it succeeded and met every limit', () => {
    assert.equal(isGoodRequest(output(0.1, 0.19, 10), slo), true); // ttft 100 ms, tpot exactly 10 ms
    assert.equal(isGoodRequest(output(0.101, 0.11, 2), slo), false);
    assert.equal(isGoodRequest(output(0.05, 0.25, 11), slo), false); // tpot 20 ms
    assert.equal(isGoodRequest(output(0.05, 5, 1), slo), true); // one token: TPOT counts as 0
    assert.equal(isGoodRequest(output(0.01, 0.02, 2, false), slo), false);
  });

  test('goodput is good requests per second; the fraction counts failures too', () => {
    const outputs = [output(0.05, 0.1, 6), output(0.2, 0.3, 6), output(0.05, 0.1, 6, false), output(0.01, 0.05, 5)];
    assert.deepEqual(computeGoodput(outputs, slo, 2), { goodRequests: 2, requestGoodput: 1, goodFraction: 0.5 });
    assert.equal(computeGoodput([], slo, 0).requestGoodput, 0);
  });
});

describe('measures', () => {
  const outputs = [output(0.1, 0.5, 5), output(0.3, 0.7, 5), output(0.2, 0.6, 1), output(9, 9, 9, false)];
  const measure = measureFromOutputs(outputs);
  test('per-request records give any statistic, skipping failures and 1-token TPOT', () => {
    assert.ok(Math.abs((measure(parseSlo('ttft=1s').targets[0]!) as number) - 200) < 1e-9);
    assert.ok(Math.abs((measure(parseSlo('p50-ttft=1s').targets[0]!) as number) - 200) < 1e-9);
    assert.ok(Math.abs((measure(parseSlo('p99-ttft=1s').targets[0]!) as number) - 298) < 1e-9);
    assert.ok(Math.abs((measure(parseSlo('tpot=1s').targets[0]!) as number) - 100) < 1e-9);
    assert.ok(Math.abs((measure(parseSlo('median-e2e=1s').targets[0]!) as number) - 600) < 1e-9);
  });
  test('no successes: latency lists read 0 but E2E is unknown', () => {
    const none = measureFromOutputs([output(1, 2, 3, false)]);
    assert.equal(none(parseSlo('ttft=1s').targets[0]!), 0);
    assert.equal(none(parseSlo('e2e=1s').targets[0]!), undefined);
  });
});
