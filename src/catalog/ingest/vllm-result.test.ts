import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isVllmResult, readVllmResult } from './vllm-result.js';

const SOURCE = { kind: 'ingest' as const, file: 'v.json', contentHash: 'h', title: 'v.json:1' };

test('bench_serving names for the same figures, arguments apart, vLLM TTFT defined as vLLM measures it', () => {
  const record = {
    date: '20251103-141502', backend: 'openai-chat', model_id: 'Qwen/Qwen3-8B', request_rate: 'inf', burstiness: 1.0, max_concurrency: 2, team: 'x',
    duration: 2.5, completed: 2, total_token_throughput: 230.4, mean_e2el_ms: 1175, p99_e2el_ms: 1248.5, mean_ttft_ms: 57.5, mean_itl_ms: 21.7, request_goodput: null,
    ttfts: [0.05, 0.06], itls: [[0.02], [0.03]], input_lens: [128, 128], output_lens: [2, 2], latencies: [1.1, 1.2], start_times: [1000.5, 1001.0], errors: ['', 'timeout'],
  };
  assert.equal(isVllmResult(record), true);
  assert.equal(isVllmResult({ backend: 'sglang', duration: 1 }), false);
  const run = readVllmResult(record, SOURCE);
  assert.deepEqual(run.metrics, {
    backend: 'openai-chat', request_rate: Infinity, max_concurrency: 2, duration: 2.5, completed: 2, total_throughput: 230.4,
    mean_e2e_latency_ms: 1175, p99_e2e_latency_ms: 1248.5, mean_ttft_ms: 57.5, mean_itl_ms: 21.7, request_goodput: null,
  });
  assert.deepEqual(Object.keys(run.metricDefinitions!), ['mean_ttft_ms']);
  assert.deepEqual([run.args!.model, run.args!.burstiness, run.args!.team, run.startedAt], ['Qwen/Qwen3-8B', 1, 'x', '2025-11-03T14:15:02']);
  assert.deepEqual(run.requests!.map((r) => [r.startTime, r.ttft, r.latency, r.success, r.error]), [[0, 0.05, 1.1, true, ''], [0.5, 0.06, 1.2, false, 'timeout']]);
});
