import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logLine, logTimestamp } from './log-line.js';
import { schedulerMessage } from './scheduler-log-format.js';

const NO_TAG = { dp: null, tp: null, ep: null };

test("a prefill and a decode line read exactly as SGLang's", () => {
  const prefill = schedulerMessage({
    kind: 'prefill', tag: NO_TAG, newSeqs: 1, newTokens: 9, cachedTokens: 0, tokenUsage: 0.001, runningReqs: 0, queueReqs: 1, inputThroughput: 1.8125, cudaGraph: false,
  });
  assert.equal(
    logLine('2026-03-04 15:13:22', null, prefill),
    '[2026-03-04 15:13:22] Prefill batch, #new-seq: 1, #new-token: 9, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 1, input throughput (token/s): 1.81, cuda graph: False',
  );
  const decode = schedulerMessage({
    kind: 'decode', tag: NO_TAG, runningReqs: 2, tokens: 84, tokenUsage: 0.0003, accept: null, cudaGraph: true, genThroughput: 3.62, queueReqs: 1,
  });
  assert.equal(
    logLine('2026-03-04 15:13:22', null, decode),
    '[2026-03-04 15:13:22] Decode batch, #running-req: 2, #token: 84, token usage: 0.00, cuda graph: True, gen throughput (token/s): 3.62, #queue-req: 1',
  );
});

test('speculative decoding adds the accept length and rate after the token usage; DP attention tags the prefix', () => {
  const decode = schedulerMessage({
    kind: 'decode', tag: { dp: 0, tp: 0, ep: null }, runningReqs: 2, tokens: 84, tokenUsage: 0, accept: { length: 2.47, rate: 0.8233 }, cudaGraph: true, genThroughput: 3.62, queueReqs: 1,
  });
  assert.equal(
    logLine('2026-03-04 15:13:22', { dp: 0, tp: 0, ep: null }, decode),
    '[2026-03-04 15:13:22 DP0 TP0] Decode batch, #running-req: 2, #token: 84, token usage: 0.00, accept len: 2.47, accept rate: 0.82, cuda graph: True, gen throughput (token/s): 3.62, #queue-req: 1',
  );
  assert.equal(logLine('t', { dp: 3, tp: 6, ep: 6 }, 'm'), '[t DP3 TP6 EP6] m');
  assert.equal(logLine('t', { dp: null, tp: 0, ep: null }, 'm'), '[t TP0] m');
});

test("timestamps are Python logging's, to the second, in local time", () => {
  assert.equal(logTimestamp(new Date(2026, 2, 4, 15, 13, 22, 987)), '2026-03-04 15:13:22');
  assert.equal(logTimestamp(new Date(2026, 11, 31, 5, 6, 7)), '2026-12-31 05:06:07');
});
