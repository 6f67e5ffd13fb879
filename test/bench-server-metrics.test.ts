/**
 * The server's side of a run, end to end: the built CLI against a `servebench sim` process (its
 * /metrics and meta_info from its radix cache and scheduler, its own record at /sim/stats), the
 * embedded sim on a dilated clock, and loopback servers exposing vLLM-named metrics, failing
 * mid-run, or reporting token counts that disagree with their text.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePythonJson } from '../src/catalog/ingest/jsonl.js';
import { openCatalog } from '../src/catalog/index.js';
import { runCli } from './helpers/cli.js';
import { spawnSim, type SimProcess } from './helpers/sim-process.js';
import { startStreamServer } from './helpers/stream-server.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-server-metrics-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const LAUNCH = ['--model-path', MODEL, '--hardware', 'h100', '--enable-metrics', '--max-running-requests', '8'];
const GSP = [
  '--dataset-name', 'generated-shared-prefix', '--gsp-num-groups', '4', '--gsp-prompts-per-group', '12', '--gsp-system-prompt-len', '512',
  '--gsp-question-len', '48', '--gsp-output-len', '24', '--num-prompts', '48', '--max-concurrency', '16', '--seed', '3', '--disable-tqdm',
];

/** The JSONL record bench appended to `file`. */
function record(file: string): any {
  return parsePythonJson(readFileSync(file, 'utf8').trim().split('\n').at(-1)!);
}

function assertWithin(measured: number, truth: number, relative: number, what: string): void {
  assert.ok(Math.abs(measured - truth) <= relative * Math.abs(truth), `${what}: reported ${measured}, the sim's own record ${truth}`);
}

interface SimStats {
  prompt_tokens: number;
  cached_tokens: number;
  queue_time_sum_s: number;
  queued_requests: number;
}

async function simStats(url: string): Promise<SimStats> {
  return (await (await fetch(`${url}/sim/stats`)).json()) as SimStats;
}

describe('against a servebench sim process with a shared-prefix workload', () => {
  let sim: SimProcess | undefined;
  before(async () => {
    sim = await spawnSim([...LAUNCH, '--port', '0', '--host', '127.0.0.1']);
  });
  after(() => sim?.child.kill('SIGKILL'));

  test("prefix-cache hit rate and server queue time agree with the sim's own record within 1%; each request keeps its own figures", async () => {
    const before = await simStats(sim!.url);
    const file = join(workDir, 'gsp.jsonl');
    const db = join(workDir, 'gsp.db');
    const result = await runCli(['bench', '--backend', 'sglang', '--base-url', sim!.url, '--model', MODEL, ...GSP, '--warmup-requests', '0', '--output-file', file, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    const after = await simStats(sim!.url);
    const truthHitRate = (after.cached_tokens - before.cached_tokens) / (after.prompt_tokens - before.prompt_tokens);
    const truthQueueMs = ((after.queue_time_sum_s - before.queue_time_sum_s) / (after.queued_requests - before.queued_requests)) * 1000;
    assert.ok(truthHitRate > 0.5, `the shared prefixes hit the radix cache (${truthHitRate})`);
    assert.ok(truthQueueMs > 1, `16 streams on 8 slots queue in the server (${truthQueueMs} ms)`);
    const metrics = record(file).servebench.server_side.metrics;
    assert.equal(metrics.dialect, 'sglang');
    assertWithin(metrics.prefix_cache_hit_rate, truthHitRate, 0.01, 'prefix cache hit rate');
    assertWithin(metrics.queue_time_ms.mean, truthQueueMs, 0.01, 'mean server queue time (ms)');
    assert.equal(metrics.queue_time_ms.count, after.queued_requests - before.queued_requests);
    assert.match(result.stdout, /-+servebench server side-+\n/);
    assert.match(result.stdout, /Prefix cache hit rate \(%\):\s+\d+\.\d\d/);
    assert.match(result.stdout, /Token counts differing \(client\/server\):\s+0 of 48/);
    // Every response said what it was served from the cache and how long it queued: the catalog keeps it per request.
    const catalog = openCatalog(db);
    try {
      const [run] = catalog.listRuns();
      assert.equal(run!.serverMetrics?.dialect, 'sglang');
      const requests = catalog.getRequests(run!.id);
      const cached = requests.reduce((sum, r) => sum + (r.server?.cachedTokens ?? 0), 0);
      const prompt = requests.reduce((sum, r) => sum + (r.server?.promptTokens ?? 0), 0);
      assertWithin(cached / prompt, truthHitRate, 0.01, 'hit rate from the responses');
      const queueMs = (requests.reduce((sum, r) => sum + (r.server?.queueTime ?? 0), 0) / requests.length) * 1000;
      assertWithin(queueMs, truthQueueMs, 0.01, 'queue time from the responses');
    } finally {
      catalog.close();
    }
  });
});

test('the embedded sim on a dilated clock: the server figures are in engine time, as the client divides its own', async () => {
  const file = join(workDir, 'scaled.jsonl');
  const result = await runCli([
    'bench', '--sim', LAUNCH.join(' '), '--sim-time-scale', '3', '--backend', 'sglang', ...GSP, '--output-file', file, '--no-catalog', '--metrics-interval', '0.2',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const rec = record(file);
  const metrics = rec.servebench.server_side.metrics;
  const split = rec.servebench.server_side.ttft_split_ms;
  // The responses' queue times (engine seconds, never rescaled) against the histogram's mean.
  assertWithin(split.server_queue, metrics.queue_time_ms.mean, 0.01, 'per-request vs /metrics queue time');
  // The server's count of generated tokens over the window, per engine second, against the client's.
  assertWithin(metrics.generation_throughput, rec.output_throughput, 0.1, 'generation throughput');
  assert.ok(metrics.scrapes >= 3, `readings during the run too (${metrics.scrapes})`);
});

/** vLLM's names, counters advancing with the requests the server finished: hit rate 30%, queue time 250 ms, accept length 2.5. */
function vllmMetrics(state: { finished: number; tokens: number }): string {
  const { finished, tokens } = state;
  return [
    '# TYPE vllm:num_requests_running gauge',
    `vllm:num_requests_running{engine="0",model_name="m"} 2.0`,
    `vllm:num_requests_waiting{engine="0",model_name="m"} 0.0`,
    `vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.125`,
    `vllm:prefix_cache_queries_total{engine="0",model_name="m"} ${100 * finished}.0`,
    `vllm:prefix_cache_hits_total{engine="0",model_name="m"} ${30 * finished}.0`,
    `vllm:generation_tokens_total{engine="0",model_name="m"} ${tokens}.0`,
    `vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} ${4 * finished}.0`,
    `vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} ${6 * finished}.0`,
    `vllm:request_queue_time_seconds_bucket{engine="0",le="0.3",model_name="m"} ${finished}.0`,
    `vllm:request_queue_time_seconds_bucket{engine="0",le="+Inf",model_name="m"} ${finished}.0`,
    `vllm:request_queue_time_seconds_count{engine="0",model_name="m"} ${finished}.0`,
    `vllm:request_queue_time_seconds_sum{engine="0",model_name="m"} ${0.25 * finished}`,
    '',
  ].join('\n');
}

const LOAD = ['--dataset-name', 'random', '--random-input-len', '16', '--random-output-len', '40', '--random-range-ratio', '1', '--num-prompts', '8', '--max-concurrency', '2', '--disable-tqdm', '--no-catalog', '--metrics-interval', '0.1'];

describe('against loopback servers', () => {
  test('a server exposing vLLM-named metrics gets the same report', async () => {
    const server = await startStreamServer({ firstTokenDelayMs: 10, intervalMs: 5, modelId: MODEL, metrics: (state) => ({ status: 200, body: vllmMetrics(state) }) });
    try {
      const file = join(workDir, 'vllm.jsonl');
      const result = await runCli(['bench', '--backend', 'vllm', '--base-url', server.url, '--model', MODEL, ...LOAD, '--output-file', file]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Metrics read \(scrapes\):\s+vllm, \d+ over/);
      assert.match(result.stdout, /Prefix cache hit rate \(%\):\s+30\.00/);
      assert.match(result.stdout, /Mean server queue time \(ms\):\s+250\.00/);
      assert.match(result.stdout, /P99 server queue time \(ms, buckets\):\s+\d/);
      assert.match(result.stdout, /Mean KV cache usage \(%\):\s+12\.50/);
      assert.match(result.stdout, /Server accept length:\s+2\.50/);
      const metrics = record(file).servebench.server_side.metrics;
      assert.equal(metrics.dialect, 'vllm');
      assert.equal(metrics.prefix_cache_hit_rate, 0.3);
      assert.ok(server.auxCalls.filter((c) => c.call === 'GET /metrics').length >= 3);
    } finally {
      await server.close();
    }
  });

  test('a /metrics that fails mid-run costs a warning, never the run', async () => {
    const server = await startStreamServer({
      firstTokenDelayMs: 10, intervalMs: 5, modelId: MODEL,
      metrics: (state) => (state.scrape === 0 ? { status: 200, body: vllmMetrics(state) } : state.scrape <= 3 ? { status: 500, body: 'boom' } : { status: 200, body: vllmMetrics(state) }),
    });
    try {
      const result = await runCli(['bench', '--backend', 'vllm', '--base-url', server.url, '--model', MODEL, ...LOAD, '--output-file', join(workDir, 'fail.jsonl')]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Successful requests:\s+8/);
      assert.match(result.stdout, /^warning: 3 of \d+ \/metrics readings failed during the run \(first: HTTP 500\); the server figures come from the others$/m);
      assert.match(result.stdout, /Prefix cache hit rate \(%\):\s+30\.00/);
    } finally {
      await server.close();
    }
  });

  test('--no-server-metrics reads no /metrics and prints nothing more; a server without metrics is benchmarked as before', async () => {
    const withMetrics = await startStreamServer({ firstTokenDelayMs: 10, intervalMs: 5, modelId: MODEL, metrics: (state) => ({ status: 200, body: vllmMetrics(state) }) });
    const without = await startStreamServer({ firstTokenDelayMs: 10, intervalMs: 5, modelId: MODEL });
    try {
      const off = await runCli(['bench', '--backend', 'vllm', '--base-url', withMetrics.url, '--model', MODEL, ...LOAD, '--no-server-metrics', '--output-file', join(workDir, 'off.jsonl')]);
      const none = await runCli(['bench', '--backend', 'vllm', '--base-url', without.url, '--model', MODEL, ...LOAD, '--output-file', join(workDir, 'none.jsonl')]);
      for (const result of [off, none]) {
        assert.equal(result.code, 0, result.stderr);
        assert.ok(!result.stdout.includes('server side'), result.stdout);
        assert.ok(!/warning/.test(result.stdout));
      }
      assert.equal(withMetrics.auxCalls.filter((c) => c.call === 'GET /metrics').length, 0);
      assert.equal(record(join(workDir, 'off.jsonl')).servebench.server_side, undefined);
      assert.equal(record(join(workDir, 'none.jsonl')).servebench.server_side, undefined);
      // The block is the same either way: the run's lines, the extras, the self-check. Which of its two
      // forms the self-check takes depends on the machine's load during each run, not on the metrics.
      const verdict = (label: string) => (label === 'WARNING client saturated' ? 'Client self-check' : label);
      const shape = (stdout: string) => stdout.split('\n').filter((l) => /^[A-Z][^:]*:/.test(l)).map((l) => verdict(l.split(':')[0]!));
      assert.deepEqual(shape(off.stdout), shape(none.stdout));
    } finally {
      await Promise.all([withMetrics.close(), without.close()]);
    }
  });

  test("requests whose client token count differs from the server's are counted and said after the block", async () => {
    const server = await startStreamServer({ firstTokenDelayMs: 5, intervalMs: 2, modelId: MODEL, extraReportedTokens: 1 });
    try {
      const result = await runCli(['bench', '--backend', 'sglang', '--base-url', server.url, '--model', MODEL, ...LOAD, '--output-file', join(workDir, 'tokens.jsonl')]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Token counts differing \(client\/server\):\s+8 of 8/);
      assert.match(result.stdout, /^warning: 8 of 8 requests: the client's token count \(retokenized output\) differs from the server's completion_tokens$/m);
      assert.deepEqual(record(join(workDir, 'tokens.jsonl')).servebench.server_side.token_counts, { checked: 8, differing: 8 });
    } finally {
      await server.close();
    }
  });
});
