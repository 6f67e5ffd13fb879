import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TokenEmission } from '../types.js';
import { TruthRecorder } from './truth-recorder.js';

const emission = { requestId: 'r' } as TokenEmission;

test("lateness is kept in engine time: each chunk's wall lateness over the scale the engine ran at then", () => {
  const recorder = new TruthRecorder(false);
  // 2 ms late in real time, then 8 ms late (wall) while the engine ran 4x slower: 2 ms of engine time each.
  recorder.record(emission, 100, 102, 102.5);
  recorder.record(emission, 200, 208, 208.5, 4);
  const summary = recorder.latenessSummary();
  assert.equal(summary.chunks, 2);
  assert.ok(Math.abs(summary.maxMs - 2) < 0.01, `max ${summary.maxMs} ms`);
});
