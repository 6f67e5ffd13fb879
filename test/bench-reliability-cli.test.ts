/**
 * Nothing measured is lost, and nothing is measured that could not be kept: `servebench bench` as
 * a process, stopped by SIGTERM and SIGHUP mid-run (summary, JSONL line, catalog run, exit status
 * 128 + signal), a sweep stopped the same way, refusing an output file it cannot write before it
 * sends anything, and capping `--workers` at the cores and the requests.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { lastRecord } from './helpers/jsonl-record.js';
import { startStreamServer } from './helpers/stream-server.js';

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
/** The embedded sim in truth mode: each request streams 30 chunks 20 ms apart, so it lasts ~0.6 s. */
const SIM = ['--sim', `--model-path ${MODEL} --truth-ttft-ms 5 --truth-itl-ms 20`];
const WORKLOAD = ['--dataset-name', 'random', '--random-input-len', '8', '--random-output-len', '30', '--random-range-ratio', '1', '--disable-tqdm'];

const workDir = mkdtempSync(join(tmpdir(), 'servebench-reliability-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

/** The runs of a catalog, as `servebench runs --json` lists them. */
async function catalogRuns(db: string): Promise<Array<{ metrics: Record<string, unknown> }>> {
  const listed = await runCli(['runs', '--db', db, '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  return JSON.parse(listed.stdout) as Array<{ metrics: Record<string, unknown> }>;
}

describe('a stop signal mid-run keeps what completed, as the first Ctrl-C does', () => {
  for (const [signal, status] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    test(`${signal}: summary, JSONL line and catalog run of the completed requests; exit ${status}`, async () => {
      const file = join(workDir, `${signal}.jsonl`);
      const db = join(workDir, `${signal}.db`);
      const result = await runCli(
        ['bench', ...SIM, ...WORKLOAD, '--num-prompts', '20', '--request-rate', '5', '--output-file', file, '--db', db],
        { whenStdout: { pattern: /Starting main benchmark run/, delayMs: 1800, act: (child) => child.kill(signal) } },
      );
      assert.equal(result.code, status, result.stderr);
      assert.match(result.stderr, new RegExp(`^Interrupted by ${signal}: sending no new requests`, 'm'));
      assert.match(result.stderr, new RegExp(`^servebench bench: stopped by ${signal}; the results of the \\d+ completed requests are saved \\(exit status ${status}\\)$`, 'm'));
      const completed = lastRecord(file).completed as number;
      assert.ok(completed > 0 && completed < 20, `completed ${completed}`);
      assert.match(result.stdout, new RegExp(`Successful requests: +${completed} `));
      const runs = await catalogRuns(db);
      assert.equal(runs.length, 1);
      assert.equal(runs[0]!.metrics.completed, completed);
    });
  }
});

test('repeated runs stopped by SIGTERM in the second: both runs kept, no summary over one whole run, exit 143', async () => {
  const file = join(workDir, 'repeat-stopped.jsonl');
  const db = join(workDir, 'repeat-stopped.db');
  const result = await runCli(
    ['bench', ...SIM, ...WORKLOAD, '--num-prompts', '20', '--request-rate', '5', '--num-runs', '3', '--output-file', file, '--db', db],
    { whenStdout: { pattern: /Serving Benchmark Result/, delayMs: 1800, act: (child) => child.kill('SIGTERM') } },
  );
  assert.equal(result.code, 143, result.stderr);
  assert.match(result.stderr, /^servebench bench: stopped by SIGTERM; the results of the \d+ completed requests of 2 runs are saved \(exit status 143\)$/m);
  const records = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line.replace(/\bInfinity\b/g, '1e999')) as { completed: number; servebench: { repeat: { run: number } } });
  assert.deepEqual(records.map((record) => record.servebench.repeat.run), [1, 2]);
  assert.equal(records[0]!.completed, 20);
  assert.ok(records[1]!.completed < 20, `run 2 completed ${records[1]!.completed}`);
  assert.doesNotMatch(result.stdout, /servebench repeated runs/);
  assert.equal((await catalogRuns(db)).length, 2);
});

test('a sweep stopped by SIGTERM after its first point: one line naming the signal, exit 143, the finished point in the catalog', async () => {
  const db = join(workDir, 'sweep-stopped.db');
  const result = await runCli(
    ['sweep', ...SIM, '--concurrency', '1,2,4', '--prompts-per-load', '4', '--db', db, '--', ...WORKLOAD],
    { whenStdout: { pattern: /^concurrency 1: /m, delayMs: 300, act: (child) => child.kill('SIGTERM') } },
  );
  assert.equal(result.code, 143, result.stderr);
  assert.match(result.stderr, /the sweep was stopped by SIGTERM; points finished so far are in the catalog/);
  assert.doesNotMatch(result.stdout, /^concurrency 4: /m);
  const runs = await catalogRuns(db);
  assert.ok(runs.length >= 1, `${runs.length} runs`);
  assert.equal(runs.filter((run) => run.metrics.completed === 4).length >= 1, true, JSON.stringify(runs.map((run) => run.metrics.completed)));
});

test('the catalog run is recorded even when the JSONL line cannot be appended', async () => {
  const folder = join(workDir, 'removed-mid-run');
  mkdirSync(folder);
  const file = join(folder, 'run.jsonl');
  const db = join(workDir, 'jsonl-lost.db');
  const result = await runCli(['bench', ...SIM, ...WORKLOAD, '--num-prompts', '3', '--output-file', file, '--db', db], {
    // The file passed its check before the run; its folder goes away while the requests run.
    whenStdout: { pattern: /Starting main benchmark run/, delayMs: 0, act: () => rmSync(folder, { recursive: true }) },
  });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, new RegExp(`^servebench bench: error: cannot append the result to ${file} \\(ENOENT`, 'm'));
  assert.match(result.stdout, /Successful requests: +3 /);
  const runs = await catalogRuns(db);
  assert.equal(runs.length, 1);
  assert.equal(runs[0]!.metrics.completed, 3);
});

describe('an output file that cannot be written is refused before any request', () => {
  const existingFolder = join(workDir, 'a-folder');
  mkdirSync(existingFolder);
  for (const [what, path, reason] of [
    ['in a folder that does not exist', join(workDir, 'missing', 'run.jsonl'), /the folder \S+missing does not exist; create it/],
    ['that is a directory', existingFolder, /it is a directory; pass a file path such as --output-file \S+results\.jsonl/],
  ] as const) {
    test(`--output-file ${what}: one line naming the path and the fix, exit 2, the server sees nothing`, async () => {
      const server = await startStreamServer();
      try {
        // No --model: discovery would be the first request, and it must not be sent either.
        const result = await runCli(['bench', '--base-url', server.url, ...WORKLOAD, '--num-prompts', '2', '--output-file', path]);
        assert.equal(result.code, 2, result.stderr);
        const lines = result.stderr.trimEnd().split('\n');
        assert.equal(lines.length, 1, result.stderr);
        assert.ok(lines[0]!.startsWith(`servebench bench: error: cannot write the results to ${path}: `), lines[0]);
        assert.match(lines[0]!, reason);
        assert.deepEqual([server.requests.length, server.auxCalls.length], [0, 0]);
      } finally {
        await server.close();
      }
    });
  }
});

test('--workers above the cores is capped to them (and to the requests) with a one-line note', async () => {
  const file = join(workDir, 'workers.jsonl');
  const cores = availableParallelism();
  const workers = Math.min(cores, 5);
  const reason = cores < 5 ? `this machine has ${cores} cores` : 'the run has 5 requests';
  const result = await runCli(['bench', ...SIM, ...WORKLOAD, '--num-prompts', '5', '--workers', '1000', '--output-file', file, '--no-catalog']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, new RegExp(`^note: --workers 1000 capped to ${workers}: ${reason}$`, 'm'));
  assert.equal(lastRecord(file).completed, 5);
});
