import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestRecord, RunRecord } from '../../catalog/index.js';
import { renderRunPage } from './run.js';

const run: RunRecord = {
  id: 'abcd00001111', recordedAt: '2026-11-20T10:00:00.000Z', startedAt: null, model: 'org/Model-<i>X', toolVersion: null,
  source: { kind: 'ingest', file: 'r.jsonl', contentHash: 'h' }, args: null, metrics: { output_throughput: 12.5 },
  serverInfo: null, environment: {}, labels: {}, recipe: null, warnings: [], requestCount: 2, mode: 'measured',
};

/** What JSONL `--output-details` gives: TTFT and ITL per request, no start time or latency. */
const details: RequestRecord[] = [0.1, 0.2].map((ttft) => ({
  startTime: null, ttft, latency: null, itl: [0.01, 0.012], promptLen: 8, outputLen: 3, success: true, error: '', cause: null,
}));

describe('run page', () => {
  test('draws the plots the records allow and says why the others are missing', () => {
    const page = renderRunPage(run, details);
    assert.match(page, /<figure class="chart" data-chart="ttft"[^>]*><svg/);
    assert.match(page, /<figure class="chart" data-chart="itl"[^>]*><svg/);
    // Throughput, concurrency and the per-request timeline all need start times; the server chart, /metrics readings.
    assert.equal((page.match(/class="chart missing-chart"/g) ?? []).length, 4);
    assert.match(page, /no \/metrics readings were kept with the run/);
    assert.match(page, /no successful request has a start time and latency/);
  });

  test("servebench's client self-check shows under the headline, not among the metrics", () => {
    const line = 'Client self-check: timing error <= 2.50 ms for 97 of 100 requests; 3 read a token or the end after a loop stall and may be off by up to 47.25 ms';
    const page = renderRunPage({ ...run, metrics: { ...run.metrics, client_self_check: line } }, []);
    assert.match(page, /<div class="sub" id="self-check"><p>Client self-check: timing error &lt;= 2\.50 ms for 97 of 100 requests/);
    assert.doesNotMatch(page, /<th>client_self_check<\/th>/);
  });

  test('the model name is escaped in the heading and the facts', () => {
    const page = renderRunPage(run, []);
    assert.match(page, /<h1>Model-&lt;i&gt;X<\/h1>/);
    assert.match(page, /<dd>org\/Model-&lt;i&gt;X<\/dd>/);
    assert.ok(!page.includes('<i>'));
  });
});
