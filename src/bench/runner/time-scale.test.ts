import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NumpyRandomState } from '../../core/rng.js';
import type { DatasetRow, RequestOutput } from '../types.js';
import { poissonSchedule } from './schedule.js';
import { CHUNK_CPU_SHARE, MAX_AUTO_TIME_SCALE, STEP_WAKE_RATIO, chooseTimeScale, loopHealthInServerTime, outputInServerTime, stretchSchedule } from './time-scale.js';

const row: DatasetRow = { prompt: 'p', promptLen: 1, outputLen: 1, textPromptLen: 1, visionPromptLen: 0, imageData: null, extraRequestBody: {} };

test('a stretched schedule is the schedule at a K times lower rate: the same draws, K times later', () => {
  const atRate = poissonSchedule([row, row, row, row], 8, () => null, new NumpyRandomState(3));
  const atLowerRate = poissonSchedule([row, row, row, row], 2, () => null, new NumpyRandomState(3));
  const stretched = stretchSchedule(atRate, 4);
  stretched.forEach((item, i) => assert.ok(Math.abs(item.sendAt - atLowerRate[i]!.sendAt) < 1e-12));
  assert.equal(atRate[1]!.sendAt * 4, stretched[1]!.sendAt);
});

test("a request's record in the server's time: every time divided by K, counts and text kept", () => {
  const wall: RequestOutput = {
    generatedText: 'abc', success: true, latency: 0.8, ttft: 0.2, itl: [0.04, 0.08], textChunks: ['a', 'b', 'c'], promptLen: 5, error: '',
    outputLen: 3, startTime: 12, queueTime: 0.4, failureCause: null, firstReasoningTtft: 0.2, stampLatenessBound: 0.004,
    sendPhases: { wait: 0.008, connect: 0, write: 0.0004 },
  };
  const scaled = outputInServerTime(wall, 4);
  assert.deepEqual(scaled, {
    ...wall, latency: 0.2, ttft: 0.05, itl: [0.01, 0.02], startTime: 3, queueTime: 0.1, firstReasoningTtft: 0.05, stampLatenessBound: 0.001,
    sendPhases: { wait: 0.002, connect: 0, write: 0.0001 },
  });
  assert.equal(wall.ttft, 0.2, 'the measured record is left as it was');
  const { firstReasoningTtft: _reasoning, sendPhases: _phases, stampLatenessBound: _bound, ...neverSent } = wall;
  assert.deepEqual(Object.keys(outputInServerTime(neverSent, 2)).sort(), Object.keys(neverSent).sort(), 'what was not measured stays absent');
});

test("a loop's delays are divided by K, its CPU share kept", () => {
  const sample = { delayP50Ms: 0.4, delayP99Ms: 2, delayMaxMs: 8, cpuSeconds: 0.5, wallSeconds: 4 };
  assert.deepEqual(loopHealthInServerTime(sample, 4), { delayP50Ms: 0.1, delayP99Ms: 0.5, delayMaxMs: 2, cpuSeconds: 0.5, wallSeconds: 4 });
});

test('auto picks the least whole factor that keeps chunk work and step length within bounds', () => {
  const machine = { chunkCostUs: 20, wakeP99Us: 150 };
  // A slow engine at a low rate runs in real time.
  assert.equal(chooseTimeScale({ ...machine, typicalStepMs: 40, peakEventsPerSecond: 1000 }), 1);
  // Steps of 1.5 ms: 100 wake-ups of 0.15 ms are 15 ms, so 10x.
  assert.equal(STEP_WAKE_RATIO, 100);
  assert.equal(chooseTimeScale({ ...machine, typicalStepMs: 1.5, peakEventsPerSecond: 1000 }), 10);
  // 100,000 events/s of 20 µs are 2 cores' worth: 8x keeps them within a quarter of one.
  assert.equal(CHUNK_CPU_SHARE, 0.25);
  assert.equal(chooseTimeScale({ ...machine, typicalStepMs: 40, peakEventsPerSecond: 100_000 }), 8);
  assert.equal(chooseTimeScale({ ...machine, typicalStepMs: 0.001, peakEventsPerSecond: 1e9 }), MAX_AUTO_TIME_SCALE);
  // No stream with two tokens: the step does not bound it.
  assert.equal(chooseTimeScale({ ...machine, typicalStepMs: 0, peakEventsPerSecond: 100 }), 1);
});
