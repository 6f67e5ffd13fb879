import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestOutput } from '../types.js';
import { tokenCountCheck, ttftSplit } from './per-request.js';

function output(o: Partial<RequestOutput>): RequestOutput {
  return {
    generatedText: 'x', success: true, latency: 1, ttft: 0.1, itl: [], textChunks: [], promptLen: 10, error: '', outputLen: 4,
    startTime: 1, queueTime: 0, failureCause: null, ...o,
  };
}

test('TTFT split: client queue (slot wait and send phases), server queue where reported, the rest', () => {
  const split = ttftSplit([
    output({ queueTime: 0.02, ttft: 0.1, sendPhases: { wait: 0.001, connect: 0, write: 0.001 }, server: { queueTime: 0.03 } }),
    output({ queueTime: 0, ttft: 0.2, server: { queueTime: 0.05 } }),
    output({ success: false, queueTime: 9, ttft: 9 }),
  ])!;
  assert.equal(split.requests, 2);
  assert.ok(Math.abs(split.clientQueueMs - 11) < 1e-9);
  assert.equal(split.serverQueueReported, 2);
  assert.ok(Math.abs(split.serverQueueMs! - 40) < 1e-9);
  assert.ok(Math.abs(split.restMs - 110) < 1e-9);
});

test('TTFT split without a server queue time says so (null) and leaves TTFT whole', () => {
  const split = ttftSplit([output({ ttft: 0.3 })])!;
  assert.equal(split.serverQueueMs, null);
  assert.equal(split.serverQueueReported, 0);
  assert.ok(Math.abs(split.restMs - 300) < 1e-9);
  assert.equal(ttftSplit([output({ success: false })]), null);
});

test('token counts: successful requests whose server reported completion_tokens, compared with the retokenized count', () => {
  const outputs = [
    output({ server: { completionTokens: 4 } }),
    output({ server: { completionTokens: 5 } }),
    output({}),
    output({ success: false, server: { completionTokens: 1 } }),
  ];
  assert.deepEqual(tokenCountCheck(outputs, [4, 4, 7, 0]), { checked: 2, differing: 1 });
  assert.equal(tokenCountCheck([output({})], [4]), null);
});
