/**
 * A sharded run end to end (`bench --shards K`, and ranks started by hand as on many machines):
 * against a loopback server that logs what it receives, the shards together send the one-process
 * run's requests at its send times, and the coordinator's merged block counts what one process
 * counts. A shard whose clock is off still starts on time; a shard that dies fails the run by name.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { listeningPort, startBench } from './helpers/bench-ranks.js';
import { runCli } from './helpers/cli.js';
import { lastRecord } from './helpers/jsonl-record.js';
import { openCatalog } from '../src/catalog/index.js';
import { startStreamServer, type ServedRequest, type StreamServer } from './helpers/stream-server.js';

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const workDir = mkdtempSync(join(tmpdir(), 'servebench-shards-'));
/** Arrivals at 25 requests/s over about 1.3 s: each request's send time matters. */
const WORKLOAD = ['--backend', 'sglang', '--dataset-name', 'random', '--random-input-len', '24', '--random-output-len', '4', '--num-prompts', '32', '--request-rate', '25', '--max-concurrency', '8', '--warmup-requests', '0', '--seed', '7'];
/** How far a sharded run's sorted send times may stray from one process's (ms): a loaded 2-core box, several node processes. */
const SEND_TIME_TOLERANCE_MS = 15;

interface Run {
  record: Record<string, unknown>;
  stderr: string;
  stdout: string;
  /** What the server received: each request's body and its arrival, ms after the run's first. */
  received: Array<{ body: string; at: number }>;
}

function received(requests: readonly ServedRequest[]): Run['received'] {
  const first = Math.min(...requests.map((request) => request.receivedAt));
  return requests.map((request) => ({ body: JSON.stringify(request.body), at: request.receivedAt - first }));
}

/** The largest difference between two runs' sorted arrival times (ms), and whether they sent the same bodies. */
function compare(a: Run['received'], b: Run['received']): { sameBodies: boolean; worstMs: number } {
  const bodies = (run: Run['received']) => run.map((request) => request.body).sort();
  const times = (run: Run['received']) => run.map((request) => request.at).sort((x, y) => x - y);
  const [ta, tb] = [times(a), times(b)];
  return { sameBodies: JSON.stringify(bodies(a)) === JSON.stringify(bodies(b)), worstMs: Math.max(...ta.map((t, i) => Math.abs(t - tb[i]!))) };
}

function shardsOf(record: Record<string, unknown>): Array<Record<string, unknown>> {
  return (record.servebench as { shards: Array<Record<string, unknown>> }).shards;
}

describe('bench --shards', () => {
  let server: StreamServer;
  let single: Run;

  before(async () => {
    server = await startStreamServer({ firstTokenDelayMs: 2, intervalMs: 2 });
    single = await measure('single', []);
  });
  after(async () => {
    await server.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  const common = (file: string) => ['--base-url', server.url, '--model', MODEL, '--output-file', file, '--disable-tqdm', '--no-catalog', ...WORKLOAD];

  async function measure(name: string, extra: readonly string[]): Promise<Run> {
    const file = join(workDir, `${name}.jsonl`);
    const from = server.requests.length;
    const result = await runCli(['bench', ...common(file), ...extra]);
    assert.equal(result.code, 0, result.stderr);
    return { record: lastRecord(file), stderr: result.stderr, stdout: result.stdout, received: received(server.requests.slice(from)) };
  }

  for (const shards of [1, 2, 4]) {
    test(`--shards ${shards}: the one-process run's requests at its send times, merged into the same counts`, async (t) => {
      const run = await measure(`shards-${shards}`, ['--shards', String(shards)]);
      const { sameBodies, worstMs } = compare(single.received, run.received);
      t.diagnostic(`sorted send times within ${worstMs.toFixed(2)} ms of one process's`);
      assert.ok(sameBodies, 'the shards sent other requests than one process');
      assert.ok(worstMs <= SEND_TIME_TOLERANCE_MS, `sorted send times differ by up to ${worstMs.toFixed(2)} ms`);
      for (const key of ['completed', 'total_input_tokens', 'total_output_tokens', 'total_output_tokens_retokenized']) {
        assert.equal(run.record[key], single.record[key], key);
      }
      const perShard = shardsOf(run.record);
      assert.equal(perShard.length, shards);
      assert.equal(perShard.reduce((sum, shard) => sum + (shard.requests as number), 0), 32);
      assert.deepEqual(perShard.map((shard) => shard.max_concurrency), shards === 4 ? [2, 2, 2, 2] : shards === 2 ? [4, 4] : [8]);
      for (const shard of perShard) assert.ok((shard.clock_offset_bound_ms as number) < 50, `offset bound ${String(shard.clock_offset_bound_ms)} ms`);
      assert.match(run.stdout, /-servebench shards-/);
      assert.match(run.stderr, new RegExp(`servebench shards: ${shards} shards send request i from shard`));
    });
  }

  test('multi-turn: each conversation stays on one shard, every turn with its whole history', async () => {
    const multiTurn = ['--backend', 'sglang-oai-chat', '--dataset-name', 'generated-shared-prefix', '--gsp-num-groups', '2', '--gsp-prompts-per-group', '3', '--gsp-system-prompt-len', '16', '--gsp-question-len', '4', '--gsp-output-len', '3', '--gsp-num-turns', '3', '--max-concurrency', '2', '--warmup-requests', '0'];
    const runOf = async (name: string, extra: readonly string[]) => {
      const file = join(workDir, `${name}.jsonl`);
      const from = server.requests.length;
      const result = await runCli(['bench', '--base-url', server.url, '--model', MODEL, '--output-file', file, '--disable-tqdm', '--no-catalog', ...multiTurn, ...extra]);
      assert.equal(result.code, 0, result.stderr);
      return { record: lastRecord(file), bodies: server.requests.slice(from).map((request) => JSON.stringify(request.body)).sort() };
    };
    const one = await runOf('multi-turn-single', []);
    const sharded = await runOf('multi-turn-shards', ['--shards', '2']);
    assert.deepEqual(sharded.bodies, one.bodies);
    assert.equal(sharded.record.completed, 18);
    assert.deepEqual(shardsOf(sharded.record).map((shard) => shard.requests), [9, 9]);
  });

  test('a shard reports many requests in batches, and every one is merged', async () => {
    const file = join(workDir, 'batches.jsonl');
    const result = await runCli(['bench', '--base-url', server.url, '--model', MODEL, '--output-file', file, '--disable-tqdm', '--no-catalog', '--backend', 'sglang', '--dataset-name', 'random', '--random-input-len', '8', '--random-output-len', '2', '--num-prompts', '700', '--max-concurrency', '64', '--warmup-requests', '0', '--shards', '2']);
    assert.equal(result.code, 0, result.stderr);
    const record = lastRecord(file);
    assert.equal(record.completed, 700);
    assert.deepEqual(shardsOf(record).map((shard) => shard.requests), [350, 350]);
  });

  test("the catalog keeps a sharded run's per-shard section, and show prints it", async () => {
    const db = join(workDir, 'shards.db');
    const ingest = await runCli(['ingest', '--db', db, join(workDir, 'shards-2.jsonl')]);
    assert.equal(ingest.code, 0, ingest.stderr);
    const catalog = openCatalog(db);
    let id: string;
    try {
      const [run] = catalog.listRuns({});
      id = run!.id;
      assert.deepEqual(catalog.getRun(id).shards!.map((shard) => [shard.rank, shard.requests, shard.maxConcurrency]), [[1, 16, 4], [2, 16, 4]]);
    } finally {
      catalog.close();
    }
    const shown = await runCli(['show', '--db', db, id]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /shards \(one run sent from several processes or machines\):\n {2}shard 1 \(.+, pid \d+\): 16 requests, concurrency 4, send lag p99 [\d.]+ ms, clock offset [-+][\d.]+ ± [\d.]+ ms\n {4}Client self-check: /);
  });

  test('ranks started apart, one with its clock 30 s off: the offset is measured and the start stays aligned', async (t) => {
    const file = join(workDir, 'ranks.jsonl');
    const from = server.requests.length;
    const coordinator = startBench([...common(file), '--shards', '2', '--shard-rank', '0', '--coordinator', '127.0.0.1:0']);
    const port = await listeningPort(coordinator);
    const shardArgs = (rank: number) => [...common(join(workDir, 'unused.jsonl')), '--shards', '2', '--shard-rank', String(rank), '--coordinator', `127.0.0.1:${port}`];
    const shards = [startBench(shardArgs(1)), startBench(shardArgs(2), { SERVEBENCH_SHARD_CLOCK_SKEW_S: '30' })];
    const results = await Promise.all([coordinator.done, ...shards.map((shard) => shard.done)]);
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const perShard = shardsOf(lastRecord(file));
    assert.ok(Math.abs(perShard[0]!.clock_offset_ms as number) < 50, `shard 1 offset ${String(perShard[0]!.clock_offset_ms)} ms`);
    assert.ok(Math.abs((perShard[1]!.clock_offset_ms as number) - 30_000) < 50, `shard 2 offset ${String(perShard[1]!.clock_offset_ms)} ms`);
    const { sameBodies, worstMs } = compare(single.received, received(server.requests.slice(from)));
    t.diagnostic(`offsets ${String(perShard[0]!.clock_offset_ms)} and ${String(perShard[1]!.clock_offset_ms)} ms; sorted send times within ${worstMs.toFixed(2)} ms of one process's`);
    assert.ok(sameBodies);
    assert.ok(worstMs <= SEND_TIME_TOLERANCE_MS, `sorted send times differ by up to ${worstMs.toFixed(2)} ms`);
    assert.equal(existsSync(join(workDir, 'unused.jsonl')), false, 'a shard wrote a result of its own');
  });

  test('a shard killed mid-run fails the whole run by name, and nothing is reported', async () => {
    const slow = await startStreamServer({ firstTokenDelayMs: 5, intervalMs: 50 });
    try {
      const file = join(workDir, 'killed.jsonl');
      const result = await runCli(
        ['bench', '--base-url', slow.url, '--model', MODEL, '--output-file', file, '--disable-tqdm', '--no-catalog', '--backend', 'sglang', '--dataset-name', 'random', '--random-input-len', '16', '--random-output-len', '100', '--num-prompts', '8', '--warmup-requests', '0', '--shards', '2'],
        {
          whenStderr: {
            pattern: /listening on port/,
            delayMs: 3500,
            act: (child) => {
              const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)], { encoding: 'utf8' }).trim().split('\n');
              const shard2 = lines.find((line) => /--shard-rank 2\b/.test(line));
              if (shard2 !== undefined) process.kill(Number(shard2.trim().split(/\s+/)[0]), 'SIGKILL');
            },
          },
        },
      );
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /shard 2 of 2 .*(went away|was killed by SIGKILL) before sending its results.*: the run is incomplete and nothing was reported/);
      assert.equal(existsSync(file), false, 'a record was written for an incomplete run');
      assert.doesNotMatch(result.stdout, /Serving Benchmark Result/);
    } finally {
      await slow.close();
    }
  });

  test('a coordinator killed mid-run ends its shards, which say so and keep nothing', async () => {
    const slow = await startStreamServer({ firstTokenDelayMs: 5, intervalMs: 50 });
    try {
      const args = ['--base-url', slow.url, '--model', MODEL, '--output-file', join(workDir, 'orphan.jsonl'), '--disable-tqdm', '--no-catalog', '--backend', 'sglang', '--dataset-name', 'random', '--random-input-len', '16', '--random-output-len', '200', '--num-prompts', '8', '--warmup-requests', '0', '--shards', '2'];
      const coordinator = startBench([...args, '--shard-rank', '0', '--coordinator', '127.0.0.1:0']);
      const port = await listeningPort(coordinator);
      const shards = [1, 2].map((rank) => startBench([...args, '--shard-rank', String(rank), '--coordinator', `127.0.0.1:${port}`]));
      // The shards have started sending by the time their first requests are in the server's log.
      while (slow.requests.length < 4) await new Promise((resolve) => setTimeout(resolve, 50));
      coordinator.child.kill('SIGKILL');
      for (const shard of shards) {
        const ended = await shard.done;
        assert.equal(ended.code, 1, ended.stderr);
        assert.match(ended.stderr, /shard \d of 2: the coordinator went away before the run ended/);
      }
      assert.equal(existsSync(join(workDir, 'orphan.jsonl')), false);
    } finally {
      await slow.close();
    }
  });

  test('two shards claiming one rank fail the run, naming both', async () => {
    const file = join(workDir, 'twice.jsonl');
    const coordinator = startBench([...common(file), '--shards', '2', '--shard-rank', '0', '--coordinator', '127.0.0.1:0', '--shard-timeout', '60']);
    const port = await listeningPort(coordinator);
    const claimants = [startBench([...common(file), '--shards', '2', '--shard-rank', '1', '--coordinator', `127.0.0.1:${port}`]), startBench([...common(file), '--shards', '2', '--shard-rank', '1', '--coordinator', `127.0.0.1:${port}`])];
    const [ended, ...claims] = await Promise.all([coordinator.done, ...claimants.map((claimant) => claimant.done)]);
    assert.equal(ended.code, 1);
    assert.match(ended.stderr, /rank 1 was claimed twice \(pid \d+ on .+, then pid \d+ on .+\): give each shard its own rank/);
    for (const claim of claims) assert.equal(claim.code, 1, claim.stderr);
    assert.equal(existsSync(file), false);
  });

  test('a shard given another seed than the coordinator is refused by name', async () => {
    const file = join(workDir, 'seed.jsonl');
    const coordinator = startBench([...common(file), '--shards', '1', '--shard-rank', '0', '--coordinator', '127.0.0.1:0', '--shard-timeout', '60']);
    const port = await listeningPort(coordinator);
    const shard = startBench([...common(file), '--seed', '8', '--shards', '1', '--shard-rank', '1', '--coordinator', `127.0.0.1:${port}`]);
    const [ended, shardEnded] = await Promise.all([coordinator.done, shard.done]);
    assert.equal(ended.code, 1);
    assert.match(ended.stderr, /shard 1 of 1 built another request list than the coordinator/);
    assert.equal(shardEnded.code, 1);
    assert.match(shardEnded.stderr, /built another request list/);
  });
});
