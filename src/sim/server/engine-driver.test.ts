import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine, SimRequest, TokenEmission } from '../types.js';
import { EngineClock } from './engine-clock.js';
import { EngineDriver } from './engine-driver.js';

/** An engine whose one step ends 5 ms after arrival and staggers its two emissions after that. */
function staggeringEngine(): Engine & { aborted: string[] } {
  let request: SimRequest | null = null;
  let stepped = false;
  const aborted: string[] = [];
  const emission = (time: number, n: number, finished: boolean): TokenEmission => ({
    requestId: request!.id, time, tokens: 1, completionTokens: n, cachedTokens: 0, specVerifyCount: 0, finished, finishReason: finished ? 'length' : null,
  });
  return {
    aborted,
    submit(r) { request = r; },
    abort(id) { aborted.push(id); request = null; },
    nextEventTime() { return request !== null && !stepped ? request.arrivalTime + 0.005 : undefined; },
    advanceTo(until) {
      if (request === null || stepped || until < request.arrivalTime + 0.005) return [];
      stepped = true;
      return [emission(request.arrivalTime + 0.005, 1, false), emission(request.arrivalTime + 0.012, 2, true)];
    },
    flushCache: () => true,
    stats: () => ({ dpRanks: [], numRunning: 0, numWaiting: 0, kvUsage: 0, kvCapacityTokens: 0, avgSpecAcceptLength: null, promptTokensTotal: 0, generationTokensTotal: 0, cachedTokensTotal: 0, requestsFinished: 0, queueTimeSum: 0, queuedRequests: 0, stepCount: 0 }),
  };
}

test('emissions returned early are delivered at their due time, never before, with due/actual reported', async () => {
  const clock = new EngineClock();
  const observed: Array<[number, number]> = [];
  const driver = new EngineDriver(staggeringEngine(), clock, (_e, due, actual) => observed.push([due, actual]));
  const arrival = clock.now();
  const delivered: Array<[number, number]> = [];
  await new Promise<void>((resolve) => {
    driver.submit(
      { id: 'r', promptTokens: 1, outputTokens: 2, finishReason: 'length', arrivalTime: arrival },
      { deliver: (e) => { delivered.push([e.completionTokens, clock.now()]); if (e.finished) resolve(); } },
    );
  });
  assert.deepEqual(delivered.map(([n]) => n), [1, 2]);
  assert.ok(delivered[0]![1] >= arrival + 0.005);
  assert.ok(delivered[1]![1] >= arrival + 0.012);
  for (const [due, actual] of observed) assert.ok(actual >= due);
  assert.equal(driver.activeRequests, 0);
});

test('abort stops deliveries and tells the engine at once', async () => {
  const clock = new EngineClock();
  const engine = staggeringEngine();
  const driver = new EngineDriver(engine, clock);
  let deliveries = 0;
  driver.submit({ id: 'gone', promptTokens: 1, outputTokens: 2, finishReason: 'length', arrivalTime: clock.now() }, { deliver: () => deliveries++ });
  driver.abort('gone');
  assert.deepEqual(engine.aborted, ['gone']);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(deliveries, 0);
  driver.stop();
});

test("a request's emissions due in the same pass reach its sink together, flagged until the last", () => {
  const clock = new EngineClock();
  const start = clock.now();
  const emission = (requestId: string, n: number, finished: boolean): TokenEmission => ({
    requestId, time: start, tokens: 1, completionTokens: n, cachedTokens: 0, specVerifyCount: 0, finished, finishReason: finished ? 'length' : null,
  });
  // A server that fell behind: three chunks of `a` and one of `b`, interleaved, all already due
  // once both requests are in.
  let submitted = 0;
  let pending = [emission('a', 1, false), emission('b', 1, true), emission('a', 2, false), emission('a', 3, true)];
  const engine: Engine = {
    submit() {
      submitted += 1;
    },
    abort() {},
    nextEventTime: () => (submitted === 2 && pending.length > 0 ? start : undefined),
    advanceTo() {
      const out = pending;
      pending = [];
      return out;
    },
    flushCache: () => true,
    stats: () => ({ dpRanks: [], numRunning: 0, numWaiting: 0, kvUsage: 0, kvCapacityTokens: 0, avgSpecAcceptLength: null, promptTokensTotal: 0, generationTokensTotal: 0, cachedTokensTotal: 0, requestsFinished: 0, queueTimeSum: 0, queuedRequests: 0, stepCount: 0 }),
  };
  const driver = new EngineDriver(engine, clock);
  const calls: string[] = [];
  const sink = { deliver: (e: TokenEmission, more: boolean) => calls.push(`${e.requestId}${e.completionTokens}${more ? '+' : ''}`) };
  driver.submit({ id: 'a', promptTokens: 1, outputTokens: 3, finishReason: 'length', arrivalTime: start }, sink);
  driver.submit({ id: 'b', promptTokens: 1, outputTokens: 1, finishReason: 'length', arrivalTime: start }, sink);
  assert.deepEqual(calls, ['a1+', 'a2+', 'a3', 'b1']);
  assert.equal(driver.activeRequests, 0);
  driver.stop();
});
