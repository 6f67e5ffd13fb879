import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePythonJson, readJsonlRecord } from './jsonl.js';

test('Python JSON tokens outside strings become numbers; inside strings they stay text', () => {
  assert.deepEqual(parsePythonJson('{"a": Infinity, "b": -Infinity, "s": "NaN Infinity \\" x", "c": [NaN]}'), {
    a: Infinity,
    b: -Infinity,
    s: 'NaN Infinity " x',
    c: [NaN],
  });
});

test('a details record splits into args, metrics, server info and requests', () => {
  const run = readJsonlRecord(
    parsePythonJson(
      '{"tag": null, "backend": "sglang", "dataset_name": "random", "request_rate": Infinity, "max_concurrency": 4, ' +
        '"sharegpt_output_len": null, "random_input_len": 64, "random_output_len": 16, "random_range_ratio": 0.0, ' +
        '"server_info": {"version": "0.5.8"}, "duration": 1.5, "completed": 1, "mean_ttft_ms": 20.0, "accept_length": null, ' +
        '"input_lens": [64, 60], "output_lens": [3, 0], "ttfts": [0.02, 0.0], "itls": [[0.01, 0.01], []], ' +
        '"generated_texts": ["abc", ""], "errors": ["", "HTTP 500"]}',
    ) as Record<string, unknown>,
  );
  assert.deepEqual(run.args, {
    tag: null, backend: 'sglang', dataset_name: 'random', request_rate: Infinity, max_concurrency: 4,
    sharegpt_output_len: null, random_input_len: 64, random_output_len: 16, random_range_ratio: 0,
  });
  assert.deepEqual(run.metrics, { backend: 'sglang', request_rate: Infinity, max_concurrency: 4, duration: 1.5, completed: 1, mean_ttft_ms: 20, accept_length: null });
  assert.deepEqual(run.serverInfo, { version: '0.5.8' });
  assert.equal(run.requests.length, 2);
  assert.deepEqual(run.requests[1], { startTime: null, ttft: 0, latency: null, itl: [], promptLen: 60, outputLen: 0, success: false, error: 'HTTP 500', cause: null });
  assert.deepEqual(run.warnings, []);
});

test("a servebench record's client self-check: its line kept as text beside its figures", () => {
  const line = 'Client self-check: timing error <= 2.50 ms for every request (worst loop stall 3.1 ms), client CPU 20% of a core';
  const run = readJsonlRecord(
    parsePythonJson(`{"backend": "sglang", "servebench": {"client_self_check": "${line}", "timing_error_bound_ms": 2.5, "requests_over_timing_error_bound": 0}}`) as Record<string, unknown>,
  );
  assert.deepEqual(run.metrics, { backend: 'sglang', client_self_check: line, timing_error_bound_ms: 2.5, requests_over_timing_error_bound: 0 });
});

test('a servebench record: its own figures are flattened into metrics, its labels kept', () => {
  const run = readJsonlRecord(
    parsePythonJson(
      '{"backend": "sglang", "duration": 2.0, "servebench": {"max_itl_ms": 40.5, "failed": 2, "failures_by_cause": {"timeout": 2}, ' +
        '"queue_time_ms": {"mean": 3.5, "p99": 9.0}, "requested_request_rate": Infinity, "achieved_request_rate": null, ' +
        '"reasoning_ttft_ms": null, "labels": {"cards": "8"}, "sim": "--model-path m --tp 8"}}',
    ) as Record<string, unknown>,
  );
  assert.equal(run.fromServebench, true);
  assert.deepEqual(run.metrics, {
    backend: 'sglang', duration: 2, max_itl_ms: 40.5, failed: 2, failed_timeout: 2, mean_queue_time_ms: 3.5, p99_queue_time_ms: 9,
    requested_request_rate: Infinity, achieved_request_rate: null, reasoning_ttft_ms: null,
  });
  assert.deepEqual(run.labels, { cards: '8' });
  assert.equal(run.args.sim, '--model-path m --tp 8');
});

test("a servebench record's server readings are kept whole; readings of an absurd size are dropped with a warning", () => {
  const metrics = { dialect: 'sglang', prefix_cache_hit_rate: 0.5, series: { t: [0, 1], running_requests: [1, 2] } };
  const run = readJsonlRecord({ backend: 'sglang', servebench: { server_side: { metrics, token_counts: { checked: 2, differing: 0 } } } });
  assert.deepEqual(run.serverMetrics, metrics);
  assert.deepEqual(run.warnings, []);
  const huge = { dialect: 'sglang', series: { t: Array.from({ length: 600_000 }, (_, i) => i) } };
  const dropped = readJsonlRecord({ backend: 'sglang', servebench: { server_side: { metrics: huge } } });
  assert.equal(dropped.serverMetrics, null);
  assert.match(dropped.warnings.join('\n'), /server_side\.metrics dropped: \d+ characters/);
  assert.equal(readJsonlRecord({ backend: 'sglang' }).serverMetrics, null);
});

test("a servebench record's per-request server figures are read back beside its details; nonsense is not taken", () => {
  const run = readJsonlRecord({
    backend: 'sglang', ttfts: [0.1, 0.2], input_lens: [4, 6], output_lens: [3, 2], itls: [[], []], errors: ['', ''],
    servebench: { request_server: [{ prompt_tokens: 4, cached_tokens: 2, queue_time: 0.01 }, { queue_time: -1 }] },
  });
  assert.deepEqual(run.requests[0]!.server, { promptTokens: 4, cachedTokens: 2, queueTime: 0.01 });
  assert.equal(run.requests[1]!.server, undefined);
});

test("behind a router, the workers' bodies bench read through its /workers stand beside the router's own, by role", () => {
  const prefill = { version: '0.5.8', disaggregation_mode: 'prefill' };
  const decode = { version: '0.5.8', disaggregation_mode: 'decode' };
  const run = readJsonlRecord({
    backend: 'sglang',
    server_info: { router_manager: true, routers_count: 1, workers_count: 2 },
    servebench: { router_workers_server_info: { prefill: [prefill], decode: [decode], regular: [] } },
  });
  assert.deepEqual(run.serverInfo, { router_manager: true, routers_count: 1, workers_count: 2, prefill: [prefill], decode: [decode], regular: [] });
  assert.deepEqual(run.metrics, { backend: 'sglang' }, 'the workers are no metric');
});
