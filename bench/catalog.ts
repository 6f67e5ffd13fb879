/**
 * Catalog speed: recording runs with per-request records, listing and reading them back, and
 * parsing a recipe document. Prints figures (and the machine's load, which skews them).
 * Run: npx tsx bench/catalog.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openCatalog, type RequestRecord, type RunInput } from '../src/catalog/index.js';
import { readRunsFromText } from '../src/catalog/ingest/read-runs.js';

const RUNS = 50;
const REQUESTS = 2000;
const ITL_PER_REQUEST = 100;

function syntheticRun(i: number): RunInput {
  const requests: RequestRecord[] = Array.from({ length: REQUESTS }, (_, k) => ({
    startTime: k * 0.01, ttft: 0.1 + (k % 7) * 0.001, latency: 1.2, itl: Array.from({ length: ITL_PER_REQUEST }, (_, j) => 0.01 + j * 1e-6),
    promptLen: 1024, outputLen: ITL_PER_REQUEST + 1, success: true, error: '', cause: null,
  }));
  return { source: { kind: 'bench', file: null, contentHash: `bench-${i}` }, metrics: { mean_ttft_ms: 100 + i, output_throughput: 1000 }, args: { model: 'm' }, labels: { hardware: 'h100' }, requests };
}

const dir = mkdtempSync(join(tmpdir(), 'servebench-bench-catalog-'));
try {
  console.log(`load average (1 min): ${loadavg()[0]!.toFixed(2)}`);
  const catalog = openCatalog(join(dir, 'bench.db'));
  const runs = Array.from({ length: RUNS }, (_, i) => syntheticRun(i));
  let t = performance.now();
  for (const run of runs) catalog.recordRun(run);
  let ms = performance.now() - t;
  console.log(`recordRun: ${RUNS} runs x ${REQUESTS} requests (${ITL_PER_REQUEST} ITLs each) in ${ms.toFixed(0)} ms = ${((RUNS * REQUESTS) / (ms / 1000)).toFixed(0)} requests/s`);
  t = performance.now();
  const listed = catalog.listRuns();
  console.log(`listRuns: ${listed.length} runs in ${(performance.now() - t).toFixed(1)} ms`);
  t = performance.now();
  const requests = catalog.getRequests(listed[0]!.id);
  console.log(`getRequests: ${requests.length} requests in ${(performance.now() - t).toFixed(1)} ms`);
  catalog.close();

  const file = '/work/shared/reference/logs/deepseek-v3.2_nvidia_cookbook-results.log';
  const text = readFileSync(file, 'utf8');
  const repeats = 200;
  t = performance.now();
  for (let i = 0; i < repeats; i++) readRunsFromText(text, file);
  ms = performance.now() - t;
  console.log(`parse recipe document (${(text.length / 1024).toFixed(1)} KiB, 5 runs): ${(ms / repeats).toFixed(2)} ms each = ${((text.length * repeats) / 1048576 / (ms / 1000)).toFixed(1)} MiB/s`);

  // A sweep log: one Namespace dump and result block per point, as a shell loop over bench_serving prints them.
  const qwen = readFileSync('/work/shared/reference/logs/qwen2.5-0.5b_cuda-graph_64-16_r0.log', 'utf8');
  const points = 2000;
  const sweep = Array.from({ length: points }, (_, i) => qwen.replace('seed=1,', `seed=${i + 1},`)).join('\n');
  t = performance.now();
  const found = readRunsFromText(sweep, 'sweep.log');
  ms = performance.now() - t;
  console.log(`parse sweep log (${(sweep.length / 1048576).toFixed(1)} MiB, ${found.length} runs): ${ms.toFixed(0)} ms = ${((sweep.length / 1048576) / (ms / 1000)).toFixed(1)} MiB/s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
