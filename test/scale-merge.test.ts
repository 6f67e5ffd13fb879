/**
 * Multi-worker runs merge exactly: records measured on several threads, each with its own
 * performance.now() origin, come back to the main thread's clock and into dataset order, and the
 * reference metrics (peaks included) equal those of one process measuring the same requests.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calculateMetrics } from '../src/bench/metrics/calculate.js';
import type { BenchmarkMetrics } from '../src/bench/metrics/types.js';
import type { RequestOutput } from '../src/bench/types.js';
import { fromSharedSeconds, outputsFromSharedClock, outputsToSharedClock, toSharedSeconds } from '../src/bench/workers/clock.js';
import { workerForArrival } from '../src/bench/workers/plan.js';

/** A small deterministic generator (the records only need to be varied, not random). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

/** What one process would have recorded: `count` requests over ~6 s on its own clock, a few failed. */
function singleProcessRecords(count: number): RequestOutput[] {
  const next = lcg(7);
  return Array.from({ length: count }, (_, i) => {
    const success = i % 17 !== 5;
    const tokens = 2 + Math.floor(next() * 40);
    const itl = success ? Array.from({ length: tokens - 1 }, () => 0.008 + next() * 0.01) : [];
    const ttft = success ? 0.05 + next() * 0.2 : 0;
    return {
      generatedText: success ? 'y'.repeat(tokens) : '',
      success,
      latency: success ? ttft + itl.reduce((a, b) => a + b, 0) : 0,
      ttft,
      itl,
      textChunks: [],
      promptLen: 10 + i,
      error: success ? '' : 'Internal Server Error: boom',
      outputLen: success ? tokens : 0,
      startTime: 1234.5 + i * 0.05 + next() * 0.01,
      queueTime: next() * 0.1,
      failureCause: success ? null : 'http_5xx',
    };
  });
}

function metricsOf(outputs: readonly RequestOutput[]): BenchmarkMetrics {
  return calculateMetrics({
    outputs,
    durationS: 7.25,
    backend: 'sglang',
    acceptLength: null,
    retokenizedOutputLens: outputs.map((output) => output.outputLen),
  });
}

test('records split over workers with different clock origins merge to the single-process metrics', () => {
  const mainOffsetMs = 5_000_000.125;
  // Worker clocks start 0.2–0.5 ms apart from the main thread's (ecosystem notes §7), and one far off.
  const workerOffsetsMs = [mainOffsetMs + 0.21, mainOffsetMs + 0.47, mainOffsetMs - 86_400_000];
  const reference = singleProcessRecords(400);

  // Each worker stamps its share on its own clock, then posts it on the shared clock; replies
  // come back in completion order, not dataset order.
  const replies: Array<{ index: number; outputs: RequestOutput[] }> = [];
  reference.forEach((record, index) => {
    const worker = workerForArrival(index, workerOffsetsMs.length);
    const offset = workerOffsetsMs[worker]!;
    const sameInstantOnWorker = fromSharedSeconds(toSharedSeconds(record.startTime, mainOffsetMs), offset);
    replies.push({ index, outputs: outputsToSharedClock([{ ...record, startTime: sameInstantOnWorker }], offset) });
  });
  replies.sort((a, b) => a.outputs[0]!.startTime + a.outputs[0]!.latency - (b.outputs[0]!.startTime + b.outputs[0]!.latency));

  const merged: RequestOutput[] = new Array(reference.length);
  for (const reply of replies) merged[reply.index] = outputsFromSharedClock(reply.outputs, mainOffsetMs)[0]!;

  merged.forEach((record, i) => {
    const { startTime, ...fields } = record;
    const { startTime: referenceStart, ...referenceFields } = reference[i]!;
    assert.deepEqual(fields, referenceFields, `record ${i}`);
    assert.ok(Math.abs(startTime - referenceStart) < 1e-9, `record ${i}: start ${startTime} vs ${referenceStart}`);
  });
  assert.deepEqual(metricsOf(merged), metricsOf(reference));
});

test('the comparison above would notice a worker clock left unconverted (peaks move)', () => {
  const reference = singleProcessRecords(400);
  // A worker whose clock started 0.9 s earlier than the main thread's, its times taken unconverted.
  const unconverted = reference.map((record, index) =>
    workerForArrival(index, 2) === 1 ? { ...record, startTime: record.startTime + 0.9 } : record,
  );
  assert.notDeepEqual(
    [metricsOf(unconverted).maxOutputTokensPerS, metricsOf(unconverted).maxConcurrentRequests],
    [metricsOf(reference).maxOutputTokensPerS, metricsOf(reference).maxConcurrentRequests],
  );
});
