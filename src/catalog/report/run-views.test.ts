import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../types.js';
import { formatRunDetails } from './run-views.js';

const run = (serverMetrics: RunRecord['serverMetrics']): RunRecord => ({
  id: 'abcdef012345', recordedAt: '', startedAt: null, model: null, toolVersion: null,
  source: { kind: 'bench', file: null, contentHash: 'h' }, args: null, metrics: {}, serverInfo: null, environment: {},
  labels: {}, recipe: null, warnings: [], requestCount: 0, mode: 'measured', serverMetrics,
});

test("show lists the server's figures over the run, one per line, and leaves the readings' series to plot", () => {
  const text = formatRunDetails(run({
    dialect: 'vllm', prefix_cache_hit_rate: 0.3, queue_time_ms: { count: 4, mean: 250, p99: null },
    series: { t: [0, 1], running_requests: [1, 2] },
  }));
  const section = text.slice(text.indexOf("the server's /metrics over the run:"));
  assert.match(section, /dialect +vllm/);
  assert.match(section, /prefix_cache_hit_rate +0\.30/);
  assert.match(section, /queue_time_ms\.mean +250\n/);
  assert.match(section, /queue_time_ms\.p99 +not set/);
  assert.doesNotMatch(section, /series|running_requests/);
  assert.doesNotMatch(formatRunDetails(run(null)), /server's \/metrics/);
});
