import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerSide } from '../server-metrics/server-side.js';
import type { ServerMetricsSummary } from '../server-metrics/summary.js';
import { formatServerBlock, serverSideNotes } from './server-block.js';

const metrics: ServerMetricsSummary = {
  dialect: 'vllm', windowS: 2.5, scrapes: 4, failedScrapes: 0, prefixCacheHitRate: 0.4321, queueTime: { count: 3, meanMs: 12.5, p99Ms: null },
  running: { mean: 3.5, max: 4 }, queued: null, kvUsage: { mean: 0.25, max: 0.5 }, generationThroughput: 1234.5, specAcceptLength: null,
  series: { t: [], running: [], queued: [], kvUsage: [], generationThroughput: [] },
};
const side = (o: Partial<ServerSide>): ServerSide => ({ metrics: null, failedScrapes: null, ttftSplit: null, tokenCounts: null, ...o });

test('the block: figures in the extras style, n/a where the server gave none, no accept length line without one', () => {
  const block = formatServerBlock(side({ metrics, tokenCounts: { checked: 10, differing: 0 } }));
  const lines = block.trimEnd().split('\n');
  assert.match(lines[0]!, /^-+servebench server side-+$/);
  assert.ok(lines.includes(`${'Prefix cache hit rate (%):'.padEnd(40)} ${'43.21'.padEnd(10)}`));
  assert.ok(lines.includes(`${'P99 server queue time (ms, buckets):'.padEnd(40)} ${'n/a'.padEnd(10)}`));
  assert.ok(lines.includes(`${'Mean queued requests:'.padEnd(40)} ${'n/a'.padEnd(10)}`));
  assert.ok(lines.includes(`${'Max KV cache usage (%):'.padEnd(40)} ${'50.00'.padEnd(10)}`));
  assert.ok(lines.includes(`${'Token counts differing (client/server):'.padEnd(40)} ${'0 of 10'.padEnd(10)}`));
  assert.ok(!block.includes('accept length'));
  assert.equal(lines.at(-1), '='.repeat(50));
});

test('nothing from the server, nothing printed; a TTFT split without metrics needs a reported server queue', () => {
  assert.equal(formatServerBlock(side({})), '');
  assert.equal(formatServerBlock(side({ ttftSplit: { requests: 2, clientQueueMs: 1, serverQueueReported: 0, serverQueueMs: null, restMs: 5 } })), '');
  const block = formatServerBlock(side({ ttftSplit: { requests: 2, clientQueueMs: 1, serverQueueReported: 1, serverQueueMs: 3, restMs: 5 } }));
  assert.match(block, /Server queue \(ms\) \(1 of 2\):\s+3\.00/);
});

test('notes after the block: failed readings and differing token counts', () => {
  assert.deepEqual(serverSideNotes(side({ tokenCounts: { checked: 3, differing: 0 } })), []);
  const notes = serverSideNotes(side({ failedScrapes: { failed: 2, attempted: 7, first: 'HTTP 500' }, tokenCounts: { checked: 3, differing: 1 } }));
  assert.equal(notes.length, 2);
  assert.match(notes[0]!, /^warning: 2 of 7 \/metrics readings failed during the run \(first: HTTP 500\)/);
  assert.match(notes[1]!, /^warning: 1 of 3 requests: the client's token count/);
});
