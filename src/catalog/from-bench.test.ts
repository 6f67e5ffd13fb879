import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pyFloat } from '../core/pyformat.js';
import type { RequestOutput } from '../bench/types.js';
import { requestRecordsFromOutputs, runInputFromBench } from './from-bench.js';
import { openCatalog } from './store/catalog.js';

function output(startTime: number, success: boolean): RequestOutput {
  return {
    generatedText: 'x', success, latency: success ? 0.5 : 0, ttft: success ? 0.1 : 0, itl: success ? [0.2, 0.2] : [], textChunks: [],
    promptLen: 10, error: success ? '' : 'HTTP 503', outputLen: success ? 3 : 0, startTime, queueTime: 0, failureCause: success ? null : 'http_5xx',
  };
}

test('a bench run becomes a stored run with per-request records and redacted args', () => {
  const input = runInputFromBench({
    record: { tag: null, backend: 'sglang', request_rate: pyFloat(Infinity), max_concurrency: 2, server_info: { version: '0.5.8' }, duration: pyFloat(1.0), completed: 1, mean_ttft_ms: pyFloat(100.0) },
    args: { model: 'Qwen/Qwen3-8B', header: ['Authorization=Bearer sk-1', 'X-Api-Key: sk-2'] },
    outputs: [output(100.0, true), output(100.25, false)],
    startedAt: new Date('2026-01-02T03:04:05Z'),
    toolVersion: 'servebench 0.1.0',
    labels: { hardware: 'h100' },
  });
  assert.deepEqual(input.metrics, { backend: 'sglang', request_rate: Infinity, max_concurrency: 2, duration: 1, completed: 1, mean_ttft_ms: 100 });
  assert.deepEqual(input.requests!.map((r) => [r.startTime, r.ttft, r.cause]), [[0, 0.1, null], [0.25, null, 'http_5xx']]);
  const dir = mkdtempSync(join(tmpdir(), 'servebench-frombench-'));
  const catalog = openCatalog(join(dir, 'c.db'));
  const id = catalog.recordRun(input);
  const run = catalog.getRun(id);
  assert.equal(run.startedAt, '2026-01-02T03:04:05.000Z');
  assert.deepEqual(run.serverInfo, { version: '0.5.8' });
  assert.deepEqual(run.args!.header, ['Authorization=<redacted>', 'X-Api-Key: <redacted>']);
  assert.equal(JSON.stringify(run.args).includes('sk-'), false);
  assert.equal(catalog.getRequests(id)[0]!.itl.length, 2);
  catalog.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a run with more requests than a call stack holds arguments keeps its records', () => {
  const outputs = Array.from({ length: 300_000 }, (_, i) => output(1000 + i / 1000, true));
  const records = requestRecordsFromOutputs(outputs);
  assert.equal(records.length, 300_000);
  assert.equal(records[0]!.startTime, 0);
  assert.equal(records[2_000]!.startTime, 2);
});

test("a prediction's first wave starts at virtual time 0 and keeps its start; a measured 0 is a request never sent", () => {
  const outputs = [output(0, true), output(0, true), output(0.5, true)];
  assert.deepEqual(requestRecordsFromOutputs(outputs, true).map((r) => r.startTime), [0, 0, 0.5]);
  assert.deepEqual(requestRecordsFromOutputs([output(0, false), output(100, true), output(100.5, true)]).map((r) => r.startTime), [null, 0, 0.5]);
});
