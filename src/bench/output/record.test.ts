import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pythonJsonDumps, pythonJsonLoads } from '../../core/pyjson.js';
import { parseBenchArgs } from '../args/parse.js';
import { calculateMetrics } from '../metrics/calculate.js';
import { calculateExtras } from '../metrics/extras.js';
import type { RequestOutput } from '../types.js';
import { buildResultRecord } from './record.js';

const REFERENCE_KEYS = [
  'tag', 'backend', 'dataset_name', 'request_rate', 'max_concurrency', 'sharegpt_output_len', 'random_input_len',
  'random_output_len', 'random_range_ratio', 'server_info', 'duration', 'completed', 'total_input_tokens',
  'total_input_text_tokens', 'total_input_vision_tokens', 'total_output_tokens', 'total_output_tokens_retokenized',
  'request_throughput', 'input_throughput', 'output_throughput', 'total_throughput', 'mean_e2e_latency_ms',
  'median_e2e_latency_ms', 'std_e2e_latency_ms', 'p90_e2e_latency_ms', 'p99_e2e_latency_ms', 'mean_ttft_ms',
  'median_ttft_ms', 'std_ttft_ms', 'p99_ttft_ms', 'mean_tpot_ms', 'median_tpot_ms', 'std_tpot_ms', 'p99_tpot_ms',
  'mean_itl_ms', 'median_itl_ms', 'std_itl_ms', 'p95_itl_ms', 'p99_itl_ms', 'concurrency', 'accept_length',
  'max_output_tokens_per_s', 'max_concurrent_requests',
];
const DETAIL_KEYS = ['input_lens', 'output_lens', 'ttfts', 'itls', 'generated_texts', 'errors'];

const outputs: RequestOutput[] = [
  {
    generatedText: 'héllo', success: true, latency: 0.5, ttft: 0.25, itl: [0.125, 0.125], textChunks: [], promptLen: 4,
    error: '', outputLen: 3, startTime: 1, queueTime: 0, failureCause: null,
  },
  {
    generatedText: '', success: false, latency: 0, ttft: 0, itl: [], textChunks: [], promptLen: 6,
    error: 'Service Unavailable: busy', outputLen: 16, startTime: 1.5, queueTime: 0, failureCause: 'http_5xx',
  },
];

type RecordInput = Parameters<typeof buildResultRecord>[0];

function record(argv: string[], serverInfo: RecordInput['serverInfo'] = null, prediction?: RecordInput['prediction'], selfCheck?: RecordInput['selfCheck']) {
  const args = parseBenchArgs(['--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', ...argv]);
  const metrics = calculateMetrics({ outputs, durationS: 2, backend: args.backend, acceptLength: null, retokenizedOutputLens: [3, 0] });
  const extras = calculateExtras({ outputs, durationS: 2, requestRate: args.request_rate, maxConcurrency: args.max_concurrency });
  return buildResultRecord({ args, metrics, serverInfo, outputs, extras, prediction, selfCheck });
}

describe('buildResultRecord', () => {
  test('reference keys in order, then the servebench key', () => {
    assert.deepEqual(Object.keys(record([])), [...REFERENCE_KEYS, 'servebench']);
  });
  test('--output-details appends the per-request arrays before the servebench key', () => {
    assert.deepEqual(Object.keys(record(['--output-details'])), [...REFERENCE_KEYS, ...DETAIL_KEYS, 'servebench']);
  });
  test('serialises with bench_serving types: ints, floats with .0, Infinity, null', () => {
    const line = pythonJsonDumps(record([]));
    assert.ok(line.startsWith(
      '{"tag": null, "backend": "sglang", "dataset_name": "random", "request_rate": Infinity, "max_concurrency": null, ' +
      '"sharegpt_output_len": null, "random_input_len": 64, "random_output_len": 16, "random_range_ratio": 0.0, ' +
      '"server_info": null, "duration": 2.0, "completed": 1, "total_input_tokens": 4, "total_input_text_tokens": 4, ' +
      '"total_input_vision_tokens": 0, "total_output_tokens": 3, "total_output_tokens_retokenized": 3, ' +
      '"request_throughput": 0.5, "input_throughput": 2.0, "output_throughput": 1.5, "total_throughput": 3.5, ' +
      '"mean_e2e_latency_ms": 500.0, "median_e2e_latency_ms": 500.0, "std_e2e_latency_ms": 0.0,',
    ), line);
    assert.ok(line.includes('"concurrency": 0.25, "accept_length": null, "max_output_tokens_per_s": 3.0, "max_concurrent_requests": 1, "servebench": {'), line);
  });
  test('a trace-labelled rate and a tag', () => {
    const r = record(['--use-trace-timestamps', '--tag', 'nightly', '--max-concurrency', '8']);
    assert.equal(r.request_rate, 'trace');
    assert.equal(r.tag, 'nightly');
    assert.equal(r.max_concurrency, 8);
  });
  test('details include failures (output length 0, their error text)', () => {
    const line = pythonJsonDumps(record(['--output-details']));
    assert.ok(line.includes(
      '"input_lens": [4, 6], "output_lens": [3, 0], "ttfts": [0.25, 0.0], "itls": [[0.125, 0.125], []], ' +
      '"generated_texts": ["h\\u00e9llo", ""], "errors": ["", "Service Unavailable: busy"]',
    ), line);
  });
  test("--output-details keeps what each response said about itself under meta_info's names; without it, nothing", () => {
    const args = parseBenchArgs(['--dataset-name', 'random', '--output-details']);
    const said: RequestOutput[] = [{ ...outputs[0]!, server: { promptTokens: 4, cachedTokens: 2, queueTime: 0.01, e2eLatency: 0.5 } }, outputs[1]!];
    const metrics = calculateMetrics({ outputs: said, durationS: 2, backend: args.backend, acceptLength: null, retokenizedOutputLens: [3, 0] });
    const extras = calculateExtras({ outputs: said, durationS: 2, requestRate: args.request_rate, maxConcurrency: args.max_concurrency });
    const line = pythonJsonDumps(buildResultRecord({ args, metrics, serverInfo: null, outputs: said, extras }));
    assert.ok(line.includes('"request_server": [{"prompt_tokens": 4, "cached_tokens": 2, "e2e_latency": 0.5, "queue_time": 0.01}, null]'), line);
    assert.ok(!pythonJsonDumps(record([])).includes('request_server'));
  });
  test('the servebench key holds the extras, labels and the sim spec', () => {
    const r = record(['--label', 'gpu=h100', '--sim', '--tp 2', '--request-rate', '4']);
    assert.equal(
      pythonJsonDumps(r.servebench),
      '{"max_itl_ms": 125.0, "output_throughput_retokenized": 1.5, "total_throughput_retokenized": 3.5, "failed": 1, ' +
      '"failures_by_cause": {"http_5xx": 1}, "queue_time_ms": null, "requested_request_rate": 4.0, ' +
      '"achieved_request_rate": 1.0, "peak_in_flight_requests": 1, "peak_output_tokens_per_s_1s_window": 3.0, ' +
      '"reasoning_ttft_ms": null, "labels": {"gpu": "h100"}, "sim": "--tp 2"}',
    );
  });
  test('secrets in server_info and the sim spec stay out of the record', () => {
    const serverInfo = pythonJsonLoads('{"api_key": "sk-LEAK", "admin_api_key": null, "mem_fraction_static": 0.8, "tp_size": 2}');
    const line = pythonJsonDumps(record(['--sim', '--tp 2 --api-key sk-LEAK'], serverInfo));
    assert.equal(line.includes('sk-LEAK'), false, line);
    assert.ok(line.includes('"server_info": {"api_key": "<redacted>", "admin_api_key": null, "mem_fraction_static": 0.8, "tp_size": 2}'), line);
    assert.ok(line.includes('"sim": "--tp 2 --api-key <redacted>"'), line);
  });
  test("a prediction's record ends its servebench key with the model's expected error; a measurement's has none", () => {
    const expectedError = { meanTpot: 0.12, outputThroughput: 0.1, meanTtft: 0.25, cases: 41, groups: 14 };
    assert.ok(pythonJsonDumps(record([], null, { expectedError }).servebench).endsWith(
      '"sim": null, "prediction_error": {"mean_tpot": 0.12, "output_throughput": 0.1, "mean_ttft": 0.25}}',
    ));
    assert.ok(pythonJsonDumps(record([], null, { expectedError: null }).servebench).endsWith('"sim": null, "prediction_error": null}'));
    assert.ok(!('prediction_error' in (record([]).servebench as Record<string, unknown>)));
  });
  test("a measurement's record keeps the client self-check: its line and figures", () => {
    const selfCheck = {
      timingErrorBoundMs: 2.5, requestsOverBound: 3, worstRequestBoundMs: 47.25, requestsTimed: 100, worstStallMs: 44.5, cpuFraction: 0.3, saturated: false,
      line: 'Client self-check: timing error <= 2.50 ms for 97 of 100 requests; 3 read a token or the end after a loop stall and may be off by up to 47.25 ms',
    };
    assert.ok(pythonJsonDumps(record([], null, undefined, selfCheck).servebench).endsWith(
      `"sim": null, "client_self_check": "${selfCheck.line}", "timing_error_bound_ms": 2.5, "requests_over_timing_error_bound": 3, ` +
        '"max_timing_error_bound_ms": 47.25, "worst_loop_stall_ms": 44.5}',
    ));
    assert.ok(!('client_self_check' in (record([]).servebench as Record<string, unknown>)), 'a record without a self-check has no such keys');
  });
  test('server_info keeps the server JSON as Python would re-serialise it', () => {
    const info = pythonJsonLoads('{"mem_fraction_static": 1.0, "internal_states": [{"avg_spec_accept_length": 2.5}], "tp_size": 1}');
    assert.ok(pythonJsonDumps(record([], info)).includes(
      '"server_info": {"mem_fraction_static": 1.0, "internal_states": [{"avg_spec_accept_length": 2.5}], "tp_size": 1}',
    ));
  });
});
