import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestOutput } from '../types.js';
import { calculateMetrics, retokenizedItl, usesRetokenizedItl } from './calculate.js';
import { achievedRequestRate, calculateExtras } from './extras.js';
import { peakInFlight, peakTokensInWindow } from './true-peaks.js';
import { calculatePeaks } from './peaks.js';
import type { MetricsInput } from './types.js';

function output(fields: Partial<RequestOutput>): RequestOutput {
  return {
    generatedText: '', success: true, latency: 0, ttft: 0, itl: [], textChunks: [], promptLen: 0, error: '',
    outputLen: 0, startTime: 0, queueTime: 0, failureCause: null, ...fields,
  };
}

const failed = (fields: Partial<RequestOutput> = {}): RequestOutput =>
  output({ success: false, error: 'boom', failureCause: 'http_5xx', ...fields });

function metricsOf(outputs: RequestOutput[], extra: Partial<MetricsInput> = {}) {
  return calculateMetrics({
    outputs, durationS: 2, backend: 'sglang', acceptLength: null,
    retokenizedOutputLens: outputs.map((o) => o.outputLen), ...extra,
  });
}

const close = (actual: number, expected: number): void => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≉ ${expected}`);

describe('calculateMetrics', () => {
  // Binary-exact times (multiples of 1/8 s) so expected values are hand-computable.
  const a = output({ promptLen: 10, outputLen: 3, ttft: 0.125, latency: 0.625, itl: [0.25, 0.25], startTime: 1 });
  const b = output({ promptLen: 20, outputLen: 1, ttft: 0.375, latency: 0.375, startTime: 1.5 });
  const c = failed({ promptLen: 30, outputLen: 7, ttft: 9, latency: 9, itl: [9] });
  const m = calculateMetrics({
    outputs: [a, b, c], durationS: 2, backend: 'sglang', acceptLength: null, retokenizedOutputLens: [2, 1, 99],
  });

  test('totals and throughputs count successes only', () => {
    assert.equal(m.completed, 2);
    assert.equal(m.totalInput, 30);
    assert.equal(m.totalInputText, 30);
    assert.equal(m.totalInputVision, 0);
    assert.equal(m.totalOutput, 4);
    assert.equal(m.totalOutputRetokenized, 3);
    assert.equal(m.requestThroughput, 1);
    assert.equal(m.inputThroughput, 15);
    assert.equal(m.outputThroughput, 2);
    assert.equal(m.outputThroughputRetokenized, 1.5);
    assert.equal(m.totalThroughput, 17);
    assert.equal(m.totalThroughputRetokenized, 16.5);
    assert.equal(m.durationS, 2);
  });
  test('TTFT and E2E statistics', () => {
    assert.equal(m.meanTtftMs, 250);
    assert.equal(m.medianTtftMs, 250);
    assert.equal(m.stdTtftMs, 125);
    close(m.p99TtftMs, 372.5); // 375 − 250·0.01
    assert.equal(m.meanE2eLatencyMs, 500);
    assert.equal(m.medianE2eLatencyMs, 500);
    assert.equal(m.stdE2eLatencyMs, 125);
    close(m.p90E2eLatencyMs, 600);
    close(m.p99E2eLatencyMs, 622.5);
    assert.equal(m.concurrency, 0.5); // (0.625 + 0.375) / 2
  });
  test('TPOT excludes one-token outputs', () => {
    // Only a: (0.625 − 0.125) / (3 − 1) = 0.25 s.
    assert.equal(m.meanTpotMs, 250);
    assert.equal(m.medianTpotMs, 250);
    assert.equal(m.stdTpotMs, 0);
    assert.equal(m.p99TpotMs, 250);
  });
  test('ITL concatenates the raw gaps of successes', () => {
    assert.equal(m.meanItlMs, 250);
    assert.equal(m.maxItlMs, 250);
    assert.equal(m.p95ItlMs, 250);
  });
  test('even-length median is the mean of the middle pair', () => {
    const outputs = [0.5, 0.125, 0.25, 1].map((latency) => output({ latency, ttft: latency }));
    assert.equal(metricsOf(outputs).medianE2eLatencyMs, 375);
  });
  test('text and vision prompt lengths are summed separately', () => {
    const mm = metricsOf([output({ promptLen: 100, textPromptLen: 40, visionPromptLen: 60 }), output({ promptLen: 5 })]);
    assert.deepEqual([mm.totalInput, mm.totalInputText, mm.totalInputVision], [105, 45, 60]);
  });
  test('multi-turn runs report no input tokens (Q10)', () => {
    const mm = metricsOf([output({ promptLen: 100, outputLen: 2 })], { multiTurn: true });
    assert.deepEqual([mm.totalInput, mm.inputThroughput, mm.totalOutput], [0, 0, 2]);
  });
  test('zero successes give zeros instead of a crash (Q7)', () => {
    const mm = metricsOf([failed(), failed()]);
    assert.equal(mm.completed, 0);
    for (const key of ['meanE2eLatencyMs', 'p90E2eLatencyMs', 'p99TtftMs', 'maxItlMs', 'concurrency', 'maxOutputTokensPerS', 'maxConcurrentRequests'] as const) {
      assert.equal(mm[key], 0, key);
    }
  });
  test('the accept length is carried through', () => {
    assert.equal(metricsOf([output({})], { acceptLength: 3.25 }).acceptLength, 3.25);
  });
});

describe('retokenized ITL (sglang-oai with speculative decoding)', () => {
  const chunked = output({ textChunks: ['ab', 'cde', ''], itl: [0.375, 0.75, 0.125], outputLen: 6, ttft: 0.125, latency: 1.375 });
  test('applies only to sglang-oai backends with a positive accept length', () => {
    assert.equal(usesRetokenizedItl('sglang-oai', 2), true);
    assert.equal(usesRetokenizedItl('sglang-oai-chat', 1.5), true);
    assert.equal(usesRetokenizedItl('sglang-oai', 0), false);
    assert.equal(usesRetokenizedItl('sglang-oai', null), false);
    assert.equal(usesRetokenizedItl('sglang', 2), false);
    assert.equal(usesRetokenizedItl('vllm-chat', 2), false);
  });
  test('a chunk of n tokens contributes n equal gaps; empty chunks are skipped (Q21)', () => {
    assert.deepEqual(retokenizedItl(chunked, [1, 3, 0]), [0.375, 0.25, 0.25, 0.25]);
  });
  test('replaces the raw ITL in the statistics', () => {
    const input = { backend: 'sglang-oai', acceptLength: 2.5, chunkTokenCounts: [[1, 3, 0]] } as const;
    const mm = metricsOf([chunked], input);
    assert.equal(mm.meanItlMs, 281.25); // (0.375 + 0.75) / 4
    assert.equal(mm.medianItlMs, 250);
    assert.equal(mm.maxItlMs, 375);
    const raw = metricsOf([chunked], { backend: 'sglang-oai', acceptLength: null });
    assert.equal(raw.maxItlMs, 750);
  });
  test('missing chunk counts are a programming error', () => {
    assert.throws(() => metricsOf([chunked], { backend: 'sglang-oai', acceptLength: 2 }), /chunkTokenCounts is required/);
  });
  test('peaks keep counting raw chunk events', () => {
    const mm = metricsOf([chunked], { backend: 'sglang-oai', acceptLength: 2.5, chunkTokenCounts: [[1, 3, 0]] });
    // Raw events at 0.125, 0.5 | 1.25, 1.375 → 2 per bucket; split gaps would put 3 in the first bucket.
    assert.equal(mm.maxOutputTokensPerS, 2);
  });
});

describe('calculatePeaks', () => {
  test('1-second buckets from the earliest start', () => {
    // A: tokens at 10.5, 11.0, 11.5, 12.0, 12.5 (buckets 0,1,1,2,2), in flight buckets 0–2.
    const a = output({ startTime: 10, ttft: 0.5, itl: [0.5, 0.5, 0.5, 0.5], latency: 2.5 });
    // B: tokens at 11.25, 11.5, 11.75 (bucket 1), in flight bucket 1.
    const b = output({ startTime: 11, ttft: 0.25, itl: [0.25, 0.25], latency: 0.75 });
    assert.deepEqual(calculatePeaks([a, b]), { maxOutputTokensPerS: 5, maxConcurrentRequests: 2 });
  });
  test('a request spanning buckets counts in each of them', () => {
    const long = output({ startTime: 0, ttft: 0.5, latency: 3.5 });
    const late = [1.25, 2.25, 3.25].map((startTime) => output({ startTime, ttft: 0.125, latency: 0.25 }));
    assert.equal(calculatePeaks([long, ...late]).maxConcurrentRequests, 2);
  });
  test('failed outputs are not counted by calculateMetrics', () => {
    const ok = output({ startTime: 5, ttft: 0.25, latency: 0.25 });
    const bad = failed({ startTime: 5, ttft: 0.1, itl: [0.1, 0.1], latency: 0.3 });
    const mm = metricsOf([ok, bad]);
    assert.deepEqual([mm.maxOutputTokensPerS, mm.maxConcurrentRequests], [1, 1]);
  });
  test('no outputs give zeros', () => {
    assert.deepEqual(calculatePeaks([]), { maxOutputTokensPerS: 0, maxConcurrentRequests: 0 });
  });
});

describe('true peaks', () => {
  // --max-concurrency 2 as a dispatcher keeps it: each request starts when a slot frees (the one
  // before it ends), so at most two are ever in flight. 1-second buckets see more.
  const limited = [
    output({ startTime: 0, ttft: 0.1, itl: [0.1, 0.1], latency: 0.5 }),
    output({ startTime: 0, ttft: 0.1, itl: [0.1], latency: 0.9 }),
    output({ startTime: 0.5, ttft: 0.1, itl: [0.1], latency: 0.4 }),
    output({ startTime: 0.9, ttft: 0.1, itl: [], latency: 0.3 }),
    output({ startTime: 0.9, ttft: 0.05, itl: [0.05], latency: 0.2 }),
  ];
  test('peak in flight counts requests at one instant, never above the concurrency limit', () => {
    assert.equal(peakInFlight(limited), 2);
    assert.ok(calculatePeaks(limited).maxConcurrentRequests > 2, 'bench_serving\'s buckets count every request the bucket touched');
  });
  test('a request ending as another starts is not counted with it; failures and incomplete records are left out', () => {
    assert.equal(peakInFlight([output({ startTime: 0, latency: 1 }), output({ startTime: 1, latency: 1 })]), 1);
    assert.equal(peakInFlight([output({ startTime: 0, latency: 1 }), failed({ startTime: 0.5, latency: 1 })]), 1);
    assert.equal(peakInFlight([{ success: true, startTime: null, ttft: 0.1, latency: 1, itl: [] }]), 0);
    assert.equal(peakInFlight([]), 0);
  });
  test('peak tokens in a sliding 1 s window, wherever the buckets would fall', () => {
    // Token events at 0.6, 0.7, 0.8, 1.2, 1.3, 1.4: 1 s buckets from the first start (0) count 3 and 3, the window [0.6, 1.6) all 6.
    const tokens = [output({ startTime: 0, ttft: 0.6, itl: [0.1, 0.1], latency: 0.8 }), output({ startTime: 1.1, ttft: 0.1, itl: [0.1, 0.1], latency: 0.3 })];
    assert.equal(peakTokensInWindow(tokens), 6);
    assert.equal(calculatePeaks(tokens).maxOutputTokensPerS, 3);
    assert.equal(peakTokensInWindow(tokens, 0.5), 3);
    // The window is half-open: an event exactly one second later starts the next one.
    assert.equal(peakTokensInWindow([output({ startTime: 0, ttft: 0.5, itl: [1], latency: 1.5 })]), 1);
    assert.equal(peakTokensInWindow([failed({ startTime: 0, ttft: 0.5, itl: [0.1] })]), 0);
  });
  test('calculateExtras reports both', () => {
    const extras = calculateExtras({ outputs: limited, durationS: 1.2, requestRate: Infinity, maxConcurrency: 2 });
    assert.deepEqual([extras.peakInFlight, extras.peakOutputTokensPerS], [2, 10]);
  });
});

describe('calculateExtras', () => {
  test('failures by cause, in cause order, unknown causes as other', () => {
    const outputs = [failed({ failureCause: 'timeout' }), output({}), failed({ failureCause: 'http_5xx' }), failed({ failureCause: 'timeout' }), failed({ failureCause: null })];
    const extras = calculateExtras({ outputs, durationS: 2, requestRate: Infinity, maxConcurrency: null });
    assert.equal(extras.failed, 4);
    assert.deepEqual(Object.entries(extras.failuresByCause), [['http_5xx', 1], ['timeout', 2], ['other', 1]]);
  });
  test('queue time only when --max-concurrency limited the run', () => {
    const outputs = [0, 0.5, 1, 0.5].map((queueTime, i) => output({ queueTime, startTime: 1 + i }));
    assert.equal(calculateExtras({ outputs, durationS: 2, requestRate: Infinity, maxConcurrency: null }).queueTime, null);
    assert.equal(calculateExtras({ outputs, durationS: 2, requestRate: Infinity, maxConcurrency: 0 }).queueTime, null);
    const queue = calculateExtras({ outputs, durationS: 2, requestRate: Infinity, maxConcurrency: 2 }).queueTime!;
    assert.equal(queue.meanMs, 500);
    close(queue.p99Ms, 985); // sorted [0, 0.5, 0.5, 1], h = 2.97
  });
  test('achieved rate = requests sent / the measured window, however they queued for a slot', () => {
    // A rate-inf run: four released at once, sent as slots came free over a 2 s window.
    const outputs = [[1, 0], [1, 0], [2, 1], [2.5, 1.5]].map(([startTime, queueTime]) => output({ startTime, queueTime }));
    assert.equal(achievedRequestRate(outputs, 2), 2);
    assert.equal(achievedRequestRate([...outputs, output({ startTime: 0 })], 2), 2); // never started: left out
    assert.equal(achievedRequestRate([failed({ startTime: 3 })], 0.5), 2); // a failed request was sent all the same
    assert.equal(achievedRequestRate([output({ startTime: 0 })], 2), null);
    assert.equal(achievedRequestRate(outputs, 0), null);
    const extras = calculateExtras({ outputs, durationS: 2, requestRate: Infinity, maxConcurrency: 2 });
    assert.deepEqual([extras.requestedRate, extras.achievedRate], [Infinity, 2]);
  });
  test('reasoning TTFT over successes that streamed reasoning', () => {
    const outputs = [
      output({ firstReasoningTtft: 0.25 }), output({ firstReasoningTtft: 0.75 }), output({}),
      failed({ firstReasoningTtft: 5 }),
    ];
    const reasoning = calculateExtras({ outputs, durationS: 2, requestRate: Infinity, maxConcurrency: null }).reasoningTtft!;
    assert.equal(reasoning.count, 2);
    assert.equal(reasoning.meanMs, 500);
    assert.equal(reasoning.medianMs, 500);
    close(reasoning.p99Ms, 745);
    assert.equal(calculateExtras({ outputs: [output({})], durationS: 2, requestRate: 1, maxConcurrency: null }).reasoningTtft, null);
  });
});
