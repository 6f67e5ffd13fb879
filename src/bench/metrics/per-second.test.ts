import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculatePeaks } from './peaks.js';
import type { RequestOutput } from '../types.js';
import { perSecondTimeline, type TimedRequest } from './per-second.js';

function req(startTime: number, ttft: number, itl: number[], latency: number, success = true): TimedRequest {
  return { success, startTime, ttft, latency, itl };
}

describe('perSecondTimeline', () => {
  test('buckets token events and in-flight spans from the earliest start', () => {
    // A: tokens at 10.5, 11.0, 11.5, 12.0, 12.5 → buckets 0,1,1,2,2; in flight 0..2.
    // B: tokens at 11.25, 11.5, 11.75 → bucket 1; in flight 1..1.
    const timeline = perSecondTimeline([req(10, 0.5, [0.5, 0.5, 0.5, 0.5], 2.5), req(11, 0.25, [0.25, 0.25], 0.75)]);
    assert.deepEqual(timeline.outputTokens, [1, 5, 2, 0]);
    assert.deepEqual(timeline.inFlight, [1, 2, 1, 0]);
    assert.equal(timeline.requestsUsed, 2);
  });

  test('failed requests and records without start or latency are left out', () => {
    const timeline = perSecondTimeline([
      req(0, 0.1, [0.1], 0.3),
      req(0, 0.1, [0.1], 0.3, false),
      { success: true, startTime: null, ttft: 0.1, latency: 0.3, itl: [] },
      { success: true, startTime: 0, ttft: 0.1, latency: null, itl: [] },
    ]);
    assert.deepEqual(timeline.outputTokens, [2, 0]);
    assert.deepEqual(timeline.inFlight, [1, 0]);
    assert.equal(timeline.requestsUsed, 1);
  });

  test('no usable request gives empty series', () => {
    assert.deepEqual(perSecondTimeline([]), { outputTokens: [], inFlight: [], requestsUsed: 0 });
  });

  test('series maxima equal the bench peak metrics on the same outputs', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const outputs: RequestOutput[] = Array.from({ length: 50 }, (_, i) => {
      const itl = Array.from({ length: 5 + Math.floor(random() * 30) }, () => 0.02 + random() * 0.2);
      const ttft = 0.05 + random();
      const latency = ttft + itl.reduce((a, b) => a + b, 0);
      return {
        generatedText: '', success: true, latency, ttft, itl, textChunks: [], promptLen: 10, error: '',
        outputLen: itl.length + 1, startTime: 100 + i * 0.3 * random(), queueTime: 0, failureCause: null,
      };
    });
    const timeline = perSecondTimeline(outputs);
    const peaks = calculatePeaks(outputs);
    assert.equal(Math.max(...timeline.outputTokens), peaks.maxOutputTokensPerS);
    assert.equal(Math.max(...timeline.inFlight), peaks.maxConcurrentRequests);
    assert.equal(timeline.outputTokens.reduce((a, b) => a + b, 0), outputs.reduce((n, o) => n + o.itl.length + 1, 0));
  });
});
