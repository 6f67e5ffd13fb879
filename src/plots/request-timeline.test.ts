import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestRecord } from '../catalog/index.js';
import { MAX_TIMELINE_BARS, requestPhases, requestTimelineOption } from './request-timeline.js';

const request = (startTime: number | null, queueTime: number | null, ttft: number, latency: number, success = true): RequestRecord => ({
  startTime, ttft, latency, itl: [], promptLen: 8, outputLen: 4, success, error: success ? '' : 'HTTP 500', cause: success ? null : 'http_5xx', queueTime,
});

test('each request split into queue, time to first token and decode, by start; failed and unstarted ones left out', () => {
  const phases = requestPhases([request(1, 0.5, 0.2, 1), request(0, null, 0.1, 0.4), request(2, 0, 0.1, 0.3, false), request(null, 0, 0.1, 0.3)]);
  assert.deepEqual(phases, [
    { index: 1, queuedAt: 0, queue: 0, ttft: 0.1, decode: 0.30000000000000004 },
    { index: 0, queuedAt: 0.5, queue: 0.5, ttft: 0.2, decode: 0.8 },
  ]);
});

test('the chart stacks an invisible offset and the three phases; beyond the bar budget it samples and says so', () => {
  const option = requestTimelineOption([request(0, 0.25, 0.2, 1)], 'run abc') as { series: { name: string; data: number[] }[]; title: { subtext: string } };
  assert.deepEqual(option.series.map((s) => [s.name, s.data]), [['offset', [-0.25]], ['queue', [0.25]], ['time to first token', [0.2]], ['decode', [0.8]]]);
  assert.equal(option.title.subtext, 'run abc · 1 request');
  const many = Array.from({ length: MAX_TIMELINE_BARS * 2 + 1 }, (_, i) => request(i, null, 0.1, 0.5));
  const sampled = requestTimelineOption(many) as { series: { data: number[] }[]; title: { subtext: string } };
  assert.equal(sampled.series[0]!.data.length, Math.ceil((MAX_TIMELINE_BARS * 2 + 1) / 3));
  assert.equal(sampled.title.subtext, `${MAX_TIMELINE_BARS * 2 + 1} requests · 1 in 3 shown · no queue times recorded`);
});
