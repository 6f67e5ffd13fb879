/**
 * Traffic shapes of `servebench bench` end to end: multi-turn conversations, Mooncake trace
 * replay at the trace's times (any backend), the concurrency limit, LoRA selection and
 * `--extra-request-body` merging, as the loopback server sees them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { lastRecord } from './helpers/jsonl-record.js';
import { startStreamServer, type StreamServer } from './helpers/stream-server.js';

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const workDir = mkdtempSync(join(tmpdir(), 'servebench-traffic-'));

describe('traffic', () => {
  let server: StreamServer;
  before(async () => {
    server = await startStreamServer({ firstTokenDelayMs: 2, intervalMs: 2 });
  });
  after(async () => {
    await server.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  const common = (file: string) => ['--base-url', server.url, '--model', MODEL, '--output-file', file, '--disable-tqdm'];

  test('multi-turn: whole history per turn, one output per turn, input tokens reported as 0', async () => {
    const file = join(workDir, 'gsp.jsonl');
    const before = server.requests.length;
    const result = await runCli([
      'bench', ...common(file), '--backend', 'sglang-oai-chat', '--dataset-name', 'generated-shared-prefix',
      '--gsp-num-groups', '2', '--gsp-prompts-per-group', '2', '--gsp-system-prompt-len', '16', '--gsp-question-len', '4',
      '--gsp-output-len', '3', '--gsp-num-turns', '2', '--max-concurrency', '2', '--warmup-requests', '0',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const record = lastRecord(file);
    assert.equal(record.completed, 8);
    assert.equal(record.total_input_tokens, 0);
    const turns = server.requests.slice(before).map((r) => (r.body.messages as Array<{ role: string; content: string }>));
    const second = turns.filter((messages) => messages.length === 3);
    assert.equal(second.length, 4);
    for (const messages of second) {
      assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
      assert.equal(messages[1]!.content, ' hi hi hi');
    }
  });

  test('multi-turn rows are refused for non-chat backends with one line', async () => {
    const result = await runCli([
      'bench', ...common(join(workDir, 'x.jsonl')), '--backend', 'sglang', '--dataset-name', 'generated-shared-prefix',
      '--gsp-num-groups', '1', '--gsp-prompts-per-group', '1', '--gsp-system-prompt-len', '8', '--gsp-question-len', '4',
      '--gsp-output-len', '2', '--gsp-num-turns', '2',
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^servebench bench: error: multi-turn conversations only support chat backends/m);
  });

  test('mooncake: sessions released at the trace times on a non-sglang backend', async () => {
    const trace = join(workDir, 'trace.jsonl');
    const records = [0, 400, 800].map((timestamp, i) => JSON.stringify({ timestamp, input_length: 10, output_length: 2, hash_ids: [i] }));
    writeFileSync(trace, records.join('\n') + '\n');
    const file = join(workDir, 'mooncake.jsonl');
    const before = server.requests.length + 1; // after warmup
    const result = await runCli([
      'bench', ...common(file), '--backend', 'sglang-oai', '--dataset-name', 'mooncake', '--dataset-path', trace,
      '--num-prompts', '3', '--mooncake-slowdown-factor', '0.5',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Using time-based Mooncake request scheduler, ignoring --request-rate\./);
    assert.match(result.stdout, /Starting Mooncake trace replay\. Sessions: 3, Rounds per session: 1\. Slowdown factor: 0\.5/);
    const arrivals = server.requests.slice(before).map((r) => r.receivedAt);
    assert.equal(arrivals.length, 3);
    const gaps = [arrivals[1]! - arrivals[0]!, arrivals[2]! - arrivals[0]!];
    // Sends are timed against absolute offsets: never early, late only by scheduling delays.
    assert.ok(gaps[0]! > 195 && gaps[0]! < 350 && gaps[1]! > 395 && gaps[1]! < 550, `gaps ${gaps.join(', ')} ms`);
  });

  test('max concurrency, distinct LoRA round-robin and extra body merge reach the wire', async () => {
    const file = join(workDir, 'lora.jsonl');
    const before = server.requests.length + 1;
    const result = await runCli([
      'bench', ...common(file), '--backend', 'vllm', '--dataset-name', 'random', '--random-input-len', '8',
      '--random-output-len', '6', '--random-range-ratio', '1', '--num-prompts', '6', '--max-concurrency', '2',
      '--lora-name', 'a', 'b', 'c', '--lora-request-distribution', 'distinct', '--extra-request-body', '{"temperature": 0.3, "top_p": 0.9}',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const served = server.requests.slice(before);
    // Sent in dataset order a, b, c, a, b, c; the first two leave together, so compare as a multiset.
    assert.deepEqual(served.map((r) => r.body.model).sort(), ['a', 'a', 'b', 'b', 'c', 'c']);
    assert.ok(served.every((r) => r.body.temperature === 0.3 && r.body.top_p === 0.9 && r.body.lora_path === r.body.model));
    // Two slots: when a request arrives, at most one other is still streaming.
    for (const request of served) {
      const streaming = served.filter((other) => other !== request && other.receivedAt <= request.receivedAt && other.tokenWrites.at(-1)! > request.receivedAt);
      assert.ok(streaming.length <= 1, `${streaming.length + 1} requests in flight at once`);
    }
    const queue = (lastRecord(file).servebench as { queue_time_ms: { mean: number } }).queue_time_ms;
    assert.ok(queue.mean > 0);
  });

  test('--sim benchmarks an in-process simulated server (model discovered from it)', async () => {
    const file = join(workDir, 'sim.jsonl');
    const result = await runCli([
      'bench', '--sim', `--model-path ${MODEL} --truth-ttft-ms 15 --truth-itl-ms 3`, '--dataset-name', 'random',
      '--random-input-len', '16', '--random-output-len', '4', '--random-range-ratio', '1', '--num-prompts', '8',
      '--request-rate', '200', '--output-file', file, '--disable-tqdm',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const record = lastRecord(file);
    assert.equal(record.completed, 8);
    assert.ok((record.mean_ttft_ms as number) >= 15, `TTFT ${record.mean_ttft_ms}`);
    assert.ok((record.server_info as Record<string, unknown> | null) !== null);
  });

  test('sglang-oai with an accept length: ITL rebuilt from retokenized chunks', async () => {
    const spec = await startStreamServer({ firstTokenDelayMs: 2, intervalMs: 2, acceptLength: 2 });
    try {
      const file = join(workDir, 'accept.jsonl');
      const result = await runCli([
        'bench', '--base-url', spec.url, '--model', MODEL, '--backend', 'sglang-oai', '--dataset-name', 'random',
        '--random-input-len', '8', '--random-output-len', '5', '--random-range-ratio', '1', '--num-prompts', '4',
        '--output-file', file, '--disable-tqdm',
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Accept length: +2\.00 +$/m);
      const record = lastRecord(file);
      assert.equal(record.accept_length, 2);
      // Each chunk " hi" is one token, so the rebuilt ITL keeps one entry per decode chunk.
      assert.ok((record.mean_itl_ms as number) > 1.5, `ITL ${record.mean_itl_ms}`);
      assert.equal(record.total_output_tokens_retokenized, 20);
    } finally {
      await spec.close();
    }
  });
});
