import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LatenessHistogram } from './lateness-histogram.js';
import { judgeSimWrites, NO_LATENESS, worstLateness } from './lateness-verdict.js';

function summarizeLateness(values: readonly number[]) {
  const histogram = new LatenessHistogram();
  for (const value of values) histogram.add(value);
  return histogram.summary();
}

test('a sim on schedule gets a clean line', () => {
  const summary = summarizeLateness([0.1, 0.2, 0.1, 0.3, 0.05]);
  assert.equal(summary.chunks, 5);
  assert.equal(summary.maxMs, 0.3);
  const verdict = judgeSimWrites(summary);
  assert.equal(verdict.behind, false);
  assert.match(verdict.line, /^Simulated server self-check: write lateness p50 0\.10 ms, p99 0\.30 ms, max 0\.3 ms over 5 chunks$/);
});

test('a sim whose p99 lateness passes 2 ms is reported as behind, with the fix', () => {
  const lateness = Array.from({ length: 100 }, (_, i) => (i < 95 ? 0.2 : 12));
  const verdict = judgeSimWrites(summarizeLateness(lateness));
  assert.equal(verdict.behind, true);
  assert.match(verdict.line, /^WARNING simulated server fell behind its model \(write lateness p50 0\.20 ms, p99 12\.00 ms/);
  assert.match(verdict.line, /servebench predict/);
});

test('no chunks written: zeros, not a crash', () => {
  assert.deepEqual(summarizeLateness([]), { chunks: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 });
});

test('a time-scaled run says the engine ran slower and that its figures are divided by the factor', () => {
  const clean = judgeSimWrites({ chunks: 10, p50Ms: 0.01, p99Ms: 0.05, maxMs: 0.1 }, 4);
  assert.match(clean.line, /over 10 chunks; the engine ran 4x slower than the wall clock and every time above is divided by 4$/);
  const behind = judgeSimWrites({ chunks: 10, p50Ms: 1, p99Ms: 3, maxMs: 4 }, 2.5);
  assert.match(behind.line, /rerun with a --sim-time-scale above 2\.5/);
});

test("several sims' writes: chunks summed, each figure the worst instance's; none is no lateness", () => {
  const prefill = { chunks: 16, p50Ms: 0.02, p99Ms: 0.4, maxMs: 0.5 };
  const decode = { chunks: 400, p50Ms: 0.05, p99Ms: 0.3, maxMs: 1.2 };
  assert.deepEqual(worstLateness([prefill, decode]), { chunks: 416, p50Ms: 0.05, p99Ms: 0.4, maxMs: 1.2 });
  assert.deepEqual(worstLateness([]), NO_LATENESS);
});
