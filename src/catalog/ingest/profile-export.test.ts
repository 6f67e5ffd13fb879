import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BENCH_SERVING_DEFINITIONS } from '../metric-definitions.js';
import { parseCsv } from './csv-table.js';
import { profileExportCsvTool, profileExportTool, readProfileExportCsv, readProfileExportJson } from './profile-export.js';

const AIPERF = {
  aiperf_version: '0.3.0',
  request_throughput: { unit: 'requests/sec', avg: 3.2 },
  time_to_first_token: { unit: 'ms', avg: 95.4, p50: 90.2, p99: 160.5, std: 18 },
  inter_token_latency: { unit: 'ms', avg: 18.03, p99: 20.4 },
  request_latency: { unit: 'sec', avg: 1.24 },
  output_token_throughput: { unit: 'tokens/sec', avg: 409.6 },
  benchmark_duration: { unit: 'sec', avg: 62.5 },
  request_count: { unit: 'requests', avg: 200 },
  total_osl: { unit: 'tokens', avg: 25600 },
  output_sequence_length: { unit: 'tokens', avg: 128 },
  input_config: { endpoint: { model_names: ['Qwen/Qwen3-8B'] }, loadgen: { concurrency: 4 } },
};

test('AIPerf JSON: metrics under catalog keys in ms, with the tools ITL and throughput definitions', () => {
  assert.equal(profileExportTool(AIPERF), 'aiperf');
  const { input_config: _config, aiperf_version: _version, ...genaiPerf } = AIPERF;
  assert.equal(profileExportTool(genaiPerf), 'genai-perf');
  assert.equal(profileExportTool({ duration: 1 }), null);
  const run = readProfileExportJson(AIPERF, 'aiperf', '{}', 'a.json');
  assert.deepEqual(run.metrics, {
    request_throughput: 3.2, mean_ttft_ms: 95.4, median_ttft_ms: 90.2, p99_ttft_ms: 160.5, std_ttft_ms: 18, mean_itl_ms: 18.03, p99_itl_ms: 20.4,
    mean_e2e_latency_ms: 1240, output_throughput: 409.6, duration: 62.5, completed: 200, total_output_tokens: 25600, mean_output_sequence_length: 128,
  });
  assert.deepEqual(Object.keys(run.metricDefinitions!), ['mean_itl_ms', 'p99_itl_ms', 'output_throughput']);
  assert.notEqual(run.metricDefinitions!.mean_itl_ms, BENCH_SERVING_DEFINITIONS.itl_ms);
  assert.deepEqual([run.model, run.toolVersion, run.args!.max_concurrency, run.args!['endpoint.model_names']], ['Qwen/Qwen3-8B', 'aiperf 0.3.0', 4, ['Qwen/Qwen3-8B']]);
});

test('a latency in a unit not known is left out with a warning', () => {
  const run = readProfileExportJson({ time_to_first_token: { unit: 'ticks', avg: 3 } }, 'genai-perf', '{}', 'g.json');
  assert.deepEqual(run.metrics, {});
  assert.deepEqual(run.warnings, ["time_to_first_token is in the unknown unit 'ticks'; not read", 'no genai-perf metric could be read']);
});

test('CSV exports: the tool from the statistics header, names and units from the metric column, GenAI-Perf thousands separators', () => {
  const genai = parseCsv('Metric,avg,min,max,p99,p95,p90,p75,p50,p25\nRequest Latency (ms),"1,350.00","1,250.00",,,,,,"1,340.00",\n\nMetric,Value\nRequest Throughput (per sec),2.90\n');
  assert.equal(profileExportCsvTool(genai), 'genai-perf');
  assert.deepEqual(readProfileExportCsv(genai, 'genai-perf', '', 'g.csv').metrics, {
    mean_e2e_latency_ms: 1350, min_e2e_latency_ms: 1250, median_e2e_latency_ms: 1340, request_throughput: 2.9,
  });
  const aiperf = parseCsv('Metric,avg,min,max,p1,p50,p99,std\nTime to First Token (ms),95.40,70.10,170.00,,90.20,160.50,18.00\n\nMetric,Value\nBenchmark Duration (sec),62.50\nRequest Count,200.00\n');
  assert.equal(profileExportCsvTool(aiperf), 'aiperf');
  assert.deepEqual(readProfileExportCsv(aiperf, 'aiperf', '', 'a.csv').metrics, {
    mean_ttft_ms: 95.4, min_ttft_ms: 70.1, max_ttft_ms: 170, median_ttft_ms: 90.2, p99_ttft_ms: 160.5, std_ttft_ms: 18, duration: 62.5, completed: 200,
  });
  assert.equal(profileExportCsvTool(parseCsv('Model,Cards\nx,1\n')), null);
});
