import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTruthEngine } from './truth-engine.js';

const request = (id: string, arrivalTime: number, outputTokens: number) =>
  ({ id, promptTokens: 10, outputTokens, finishReason: 'length' as const, arrivalTime });

test('emits the first chunk ttft after arrival, then one every itl, k tokens each', () => {
  const engine = createTruthEngine({ ttftMs: 100, itlMs: 20, tokensPerChunk: 2, sharedSteps: false });
  engine.submit(request('a', 1, 5));
  assert.equal(engine.nextEventTime(), 1.1);
  assert.deepEqual(engine.advanceTo(1.09), []);
  const emissions = engine.advanceTo(10);
  assert.deepEqual(emissions.map((e) => [+e.time.toFixed(6), e.tokens, e.completionTokens, e.finished]), [
    [1.1, 2, 2, false],
    [1.12, 2, 4, false],
    [1.14, 1, 5, true],
  ]);
  assert.equal(emissions[2]!.finishReason, 'length');
  assert.equal(emissions[2]!.specVerifyCount, 3);
  assert.equal(engine.nextEventTime(), undefined);
  assert.equal(engine.stats().generationTokensTotal, 5);
});

test('interleaves requests in time order and drops aborted ones', () => {
  const engine = createTruthEngine({ ttftMs: 10, itlMs: 10, tokensPerChunk: 1, sharedSteps: false });
  engine.submit(request('a', 0, 3));
  engine.submit(request('b', 0.005, 3));
  assert.deepEqual(engine.advanceTo(0.0151).map((e) => e.requestId), ['a', 'b']);
  engine.abort('a', 0.016);
  assert.equal(engine.stats().numRunning, 1);
  assert.deepEqual(engine.advanceTo(1).map((e) => e.requestId), ['b', 'b']);
  assert.equal(engine.flushCache(), true);
});

test('shared steps put every request on one step clock, the first chunk on the first step after ttft', () => {
  const engine = createTruthEngine({ ttftMs: 50, itlMs: 20, tokensPerChunk: 1, sharedSteps: true });
  engine.submit(request('a', 0.003, 3));
  engine.submit(request('b', 0.017, 3));
  // A due time that is a step up to rounding stays on that step.
  engine.submit(request('c', 0.01, 2));
  const byRequest = new Map<string, number[]>();
  for (const e of engine.advanceTo(10)) byRequest.set(e.requestId, [...(byRequest.get(e.requestId) ?? []), +(e.time * 1000).toFixed(9)]);
  assert.deepEqual(Object.fromEntries(byRequest), { a: [60, 80, 100], c: [60, 80], b: [80, 100, 120] });
});

test('without shared steps each request keeps its own phase', () => {
  const engine = createTruthEngine({ ttftMs: 50, itlMs: 20, tokensPerChunk: 1, sharedSteps: false });
  engine.submit(request('a', 0.003, 2));
  assert.deepEqual(engine.advanceTo(10).map((e) => +(e.time * 1000).toFixed(9)), [53, 73]);
});
