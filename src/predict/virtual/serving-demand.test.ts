import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestOutput } from '../../bench/index.js';
import { WINDOW_STEPS, demandOf } from './serving-demand.js';

function output(startTime: number, ttft: number, itl: number[], success = true): RequestOutput {
  return {
    generatedText: '', success, latency: ttft + itl.reduce((a, b) => a + b, 0), ttft, itl, textChunks: [], promptLen: 1, error: '',
    outputLen: itl.length + 1, startTime, queueTime: 0, failureCause: null,
  };
}

test('the typical step is the median gap; the peak counts events in a window of a few steps', () => {
  // Two streams decoding together (10 ms steps), a third later and alone; a failed one is not served.
  const demand = demandOf([
    output(0, 0.05, [0.01, 0.01, 0.01]),
    output(0, 0.05, [0.01, 0.01, 0.01]),
    output(1, 0.05, [0.01, 0.03]),
    output(0, 0.05, [0.001, 0.001, 0.001], false),
  ]);
  assert.equal(demand.typicalStepMs, 10);
  // Every token of the two streams (8) falls within 40 ms.
  assert.equal(WINDOW_STEPS, 4);
  assert.ok(Math.abs(demand.peakEventsPerSecond - 8 / 0.04) < 1e-9, String(demand.peakEventsPerSecond));
});

test('one-token outputs have no step: the peak is their first tokens', () => {
  const demand = demandOf([output(0, 0.1, []), output(0, 0.1, []), output(0, 0.5, [])]);
  assert.equal(demand.typicalStepMs, 0);
  assert.ok(demand.peakEventsPerSecond > 0);
});
