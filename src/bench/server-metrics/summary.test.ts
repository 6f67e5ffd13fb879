import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExposition } from './exposition.js';
import { readSnapshot, type ServerSnapshot } from './snapshot.js';
import { histogramQuantile, summarizeServerMetrics, type TimedSnapshot } from './summary.js';

const snap = (text: string): ServerSnapshot => readSnapshot(parseExposition(text).samples)!;

function sglang(o: { running: number; queued: number; usage: number; gen: number; prompt: number; cached: number; q: [number, number, number, number]; sum: number }): string {
  const [b0, b1, b2, inf] = o.q;
  return `sglang:num_running_reqs{model_name="m"} ${o.running}
sglang:num_queue_reqs{model_name="m"} ${o.queued}
sglang:token_usage{model_name="m"} ${o.usage}
sglang:generation_tokens_total{model_name="m"} ${o.gen}
sglang:prompt_tokens_total{model_name="m"} ${o.prompt}
sglang:cached_tokens_total{model_name="m"} ${o.cached}
sglang:spec_accept_length{model_name="m"} 0
sglang:queue_time_seconds_bucket{model_name="m",le="0.0"} ${b0}
sglang:queue_time_seconds_bucket{model_name="m",le="0.01"} ${b1}
sglang:queue_time_seconds_bucket{model_name="m",le="0.1"} ${b2}
sglang:queue_time_seconds_bucket{model_name="m",le="+Inf"} ${inf}
sglang:queue_time_seconds_sum{model_name="m"} ${o.sum}
sglang:queue_time_seconds_count{model_name="m"} ${inf}
`;
}

test('SGLang: deltas over the window, gauges over the readings inside it, times divided by the time scale', () => {
  const readings: TimedSnapshot[] = [
    { at: 10, snapshot: snap(sglang({ running: 0, queued: 0, usage: 0, gen: 1000, prompt: 5000, cached: 1000, q: [1, 1, 1, 1], sum: 0, })) },
    { at: 14, snapshot: snap(sglang({ running: 8, queued: 4, usage: 0.5, gen: 3000, prompt: 9000, cached: 3000, q: [1, 5, 5, 5], sum: 0.02 })) },
    { at: 18, snapshot: snap(sglang({ running: 6, queued: 0, usage: 0.3, gen: 5000, prompt: 13000, cached: 5000, q: [1, 9, 11, 11], sum: 0.1 })) },
    { at: 22, snapshot: snap(sglang({ running: 0, queued: 0, usage: 0, gen: 6000, prompt: 13000, cached: 5000, q: [1, 9, 11, 11], sum: 0.1 })) },
  ];
  const summary = summarizeServerMetrics(readings, 1, 4)!;
  assert.equal(summary.dialect, 'sglang');
  assert.equal(summary.windowS, 3);
  assert.equal(summary.scrapes, 4);
  assert.equal(summary.failedScrapes, 1);
  assert.equal(summary.prefixCacheHitRate, 4000 / 8000);
  assert.equal(summary.queueTime!.count, 10);
  assert.ok(Math.abs(summary.queueTime!.meanMs - 10) < 1e-9);
  // 10 observations: 8 in (0, 0.01], 2 in (0.01, 0.1]; the 9.9th lies 1.9/2 of the way into the second.
  assert.ok(Math.abs(summary.queueTime!.p99Ms! - (10 + 90 * 0.95)) < 1e-9);
  assert.deepEqual(summary.running, { mean: 7, max: 8 });
  assert.deepEqual(summary.queued, { mean: 2, max: 4 });
  assert.deepEqual(summary.kvUsage, { mean: 0.4, max: 0.5 });
  assert.equal(summary.generationThroughput, 5000 / 3);
  assert.equal(summary.specAcceptLength, null, 'a zero gauge is no accept length');
  assert.deepEqual(summary.series.t, [0, 1, 2, 3]);
  assert.deepEqual(summary.series.generationThroughput, [null, 2000, 2000, 1000]);
});

test('vLLM names (both generations): hits over queries, 1 + accepted / drafts, engines summed, usage averaged', () => {
  const v = (hits: number, queries: number, acc: number, drafts: number, running: number) => `
vllm:num_requests_running{engine="0"} ${running}
vllm:num_requests_running{engine="1"} ${running}
vllm:num_requests_waiting{engine="0"} 1
vllm:gpu_cache_usage_perc{engine="0"} 0.2
vllm:gpu_cache_usage_perc{engine="1"} 0.4
vllm:gpu_prefix_cache_hits_total{engine="0"} ${hits}
vllm:gpu_prefix_cache_queries_total{engine="0"} ${queries}
vllm:generation_tokens_total{engine="0"} ${acc * 2}
vllm:spec_decode_num_accepted_tokens_total ${acc}
vllm:spec_decode_num_drafts_total ${drafts}
vllm:request_queue_time_seconds_bucket{le="0.5"} ${drafts}
vllm:request_queue_time_seconds_bucket{le="+Inf"} ${drafts}
vllm:request_queue_time_seconds_sum ${drafts * 0.25}
vllm:request_queue_time_seconds_count ${drafts}
`;
  const summary = summarizeServerMetrics(
    [
      { at: 0, snapshot: snap(v(0, 0, 0, 0, 0)) },
      { at: 1, snapshot: snap(v(30, 100, 150, 100, 3)) },
      { at: 2, snapshot: snap(v(60, 200, 300, 200, 0)) },
    ],
    0,
  )!;
  assert.equal(summary.dialect, 'vllm');
  assert.equal(summary.prefixCacheHitRate, 0.3);
  assert.equal(summary.specAcceptLength, 2.5);
  assert.deepEqual(summary.running, { mean: 6, max: 6 });
  assert.ok(Math.abs(summary.kvUsage!.mean - 0.3) < 1e-12);
  assert.equal(summary.queueTime!.meanMs, 250);
  assert.equal(summary.generationThroughput, 300);
});

test('what the readings cannot give is null: no histogram, a reset counter, the +Inf bucket, one reading, mixed engines', () => {
  const bare = snap('sglang:num_running_reqs 1\n');
  const summary = summarizeServerMetrics([{ at: 0, snapshot: bare }, { at: 1, snapshot: bare }], 0)!;
  assert.equal(summary.prefixCacheHitRate, null);
  assert.equal(summary.queueTime, null);
  assert.equal(summary.generationThroughput, null);
  assert.equal(summary.kvUsage, null);
  assert.equal(summary.running, null, 'no reading inside the window');
  assert.equal(histogramQuantile(0.99, { buckets: [{ le: 1, count: 1 }, { le: Infinity, count: 10 }], sum: 0, count: 10 }), null);
  assert.equal(summarizeServerMetrics([{ at: 0, snapshot: bare }], 0), null);
  assert.equal(summarizeServerMetrics([{ at: 0, snapshot: bare }, { at: 1, snapshot: snap('vllm:num_requests_running 1') }], 0), null);
  assert.equal(readSnapshot(parseExposition('process_cpu_seconds_total 3\n').samples), null);
});
