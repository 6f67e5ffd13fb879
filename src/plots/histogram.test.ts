import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { histogram, itlSamplesMs, niceStep } from './histogram.js';

describe('niceStep', () => {
  test('rounds up to 1, 2 or 5 times a power of ten', () => {
    assert.equal(niceStep(0.7), 1);
    assert.equal(niceStep(1), 1);
    assert.equal(niceStep(1.3), 2);
    assert.equal(niceStep(3), 5);
    assert.equal(niceStep(7), 10);
    assert.equal(niceStep(0.013), 0.02);
    assert.equal(niceStep(0), 1);
  });
});

describe('histogram', () => {
  test('bins start at a multiple of the width and count every sample once', () => {
    const samples = [10, 11, 12, 19.9, 20, 35, 49.99, 50];
    const h = histogram(samples, 4, 100);
    assert.equal(h.binWidth, 10);
    assert.equal(h.start, 10);
    assert.deepEqual(h.counts, [4, 1, 1, 1, 1]);
    assert.equal(h.overflow, 0);
    assert.equal(h.total, samples.length);
  });

  test('samples beyond the span percentile go to the overflow bin', () => {
    // p99 of these is 49.9993: the bins end at 50, so the 50 overflows; a 900 ms stall would too.
    const h = histogram([10, 11, 12, 19.9, 20, 35, 49.99, 50], 4);
    assert.deepEqual(h.counts, [4, 1, 1, 1]);
    assert.equal(h.overflow, 1);
    const stalls = histogram([...Array.from({ length: 200 }, (_, i) => 10 + (i % 10)), 900, 950]);
    assert.equal(stalls.binWidth, 0.5);
    assert.equal(stalls.overflow, 2);
    assert.equal(stalls.counts.reduce((a, b) => a + b, 0) + stalls.overflow, 202);
  });

  test('non-finite samples are ignored; no samples gives no bins', () => {
    const h = histogram([5, Number.NaN, Infinity, 5]);
    assert.equal(h.total, 2);
    assert.deepEqual(h.counts, [2]);
    assert.deepEqual(histogram([]).counts, []);
  });
});

describe('itlSamplesMs', () => {
  test('flattens the ITLs of successful requests into milliseconds', () => {
    const requests = [
      { success: true, startTime: 0, ttft: 0.1, latency: 1, itl: [0.01, 0.02] },
      { success: false, startTime: 0, ttft: null, latency: null, itl: [0.5] },
    ];
    assert.deepEqual(itlSamplesMs(requests), [10, 20]);
  });
});
