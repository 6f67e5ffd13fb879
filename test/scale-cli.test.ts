/**
 * `servebench bench --workers 2` end to end (the built CLI) against a truth-mode sim: the run
 * completes like a single-threaded one, `--max-concurrency` stays one global limit across the
 * worker threads (checked on the server's own record of when each request was open, and by the
 * extras' true peak in flight), and the self-check judges the worker loops (and says how
 * `--realtime` went), goes into the record and the catalog, and `show` prints it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSimServer } from '../src/sim/server/sim-server.js';
import { runCli } from './helpers/cli.js';

const MODEL = 'Qwen/Qwen3-8B';
const PROMPTS = 48;
const MAX_CONCURRENCY = 6;

interface TruthRecord {
  arrivalMs: number;
  actualMs: number[];
}

/** Most requests the server had open at once: arrival to last write, per its own record. */
function peakOpenRequests(records: readonly TruthRecord[]): number {
  const edges = records.flatMap((r) => [
    { at: r.arrivalMs, delta: 1 },
    { at: r.actualMs.at(-1)!, delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let peak = 0;
  for (const edge of edges) peak = Math.max(peak, (open += edge.delta));
  return peak;
}

describe('bench --workers against a truth-mode sim', () => {
  let sim: Awaited<ReturnType<typeof startSimServer>>;
  const workDir = mkdtempSync(join(tmpdir(), 'servebench-scale-'));
  before(async () => {
    sim = await startSimServer(['--model-path', MODEL, '--truth-ttft-ms', '15', '--truth-itl-ms', '3'], { port: 0, host: '127.0.0.1', quiet: true });
  });
  after(async () => {
    await sim.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** Runs the bench CLI against the sim; `catalog` is the --db to record in (none: --no-catalog). */
  async function bench(
    workers: number,
    extra: string[] = [],
    catalog: string | null = null,
  ): Promise<{ stdout: string; stderr: string; record: Record<string, unknown>; truth: TruthRecord[] }> {
    await fetch(`${sim.url}/sim/truth`, { method: 'DELETE' });
    const file = join(workDir, `workers-${workers}${extra.join('')}.jsonl`);
    const result = await runCli([
      'bench', '--backend', 'sglang', '--base-url', sim.url, '--model', MODEL,
      '--dataset-name', 'random', '--random-input-len', '16', '--random-output-len', '12', '--random-range-ratio', '1',
      '--num-prompts', String(PROMPTS), '--max-concurrency', String(MAX_CONCURRENCY),
      '--workers', String(workers), '--disable-tqdm', '--output-file', file, ...(catalog === null ? ['--no-catalog'] : ['--db', catalog]), ...extra,
    ]);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const record = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!.replace(/\bInfinity\b/g, '1e999')) as Record<string, unknown>;
    const truth = (await (await fetch(`${sim.url}/sim/truth`)).json()) as { requests: Record<string, TruthRecord> };
    return { stdout: result.stdout, stderr: result.stderr, record, truth: Object.values(truth.requests) };
  }

  test('two workers complete the run as one thread does, under one global concurrency limit', async () => {
    const single = await bench(1);
    const multi = await bench(2);
    for (const run of [single, multi]) {
      assert.equal(run.record.completed, PROMPTS);
      assert.equal(run.record.total_output_tokens, PROMPTS * 12);
      // The warmup request plus the measured ones, never more than the limit open at once.
      assert.equal(run.truth.length, PROMPTS + 1);
      assert.ok(peakOpenRequests(run.truth) <= MAX_CONCURRENCY, `peak ${peakOpenRequests(run.truth)} open requests`);
      const extras = run.record.servebench as Record<string, number>;
      assert.ok(extras.peak_in_flight_requests! >= 1 && extras.peak_in_flight_requests! <= MAX_CONCURRENCY, `true peak ${extras.peak_in_flight_requests}`);
      // Sent over the measured window: every request went out.
      assert.ok(Math.abs(extras.achieved_request_rate! - PROMPTS / (run.record.duration as number)) < 1e-6);
    }
    assert.match(multi.stdout, /^(Client self-check|WARNING client saturated): .*\(busiest of 2 loops\)/m);
    assert.doesNotMatch(single.stdout, /busiest of/);
  });

  test("the self-check goes into the record and the catalog, and 'show' prints it", async () => {
    const db = join(workDir, 'catalog.db');
    const run = await bench(1, [], db);
    const extras = run.record.servebench as Record<string, unknown>;
    const line = extras.client_self_check as string;
    assert.match(line, /^(Client self-check|WARNING client saturated): timing error <= \d+\.\d\d ms for (every request|\d+ of 48 requests)/);
    assert.ok(run.stdout.includes(`\n${line}\n`), 'the record keeps the line the console printed');
    assert.equal(typeof extras.timing_error_bound_ms, 'number');
    const runId = /Run (\S+) recorded in /.exec(run.stderr)?.[1];
    const shown = await runCli(['show', runId!, '--db', db]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.ok(shown.stdout.includes(`self-checks:\n  ${line}\n`), shown.stdout);
    assert.match(shown.stdout, /timing_error_bound_ms +\d/);
  });

  test('--realtime: the verdict says whether the loops that sent ran under SCHED_FIFO, on this thread or on workers', async () => {
    for (const workers of [1, 2]) {
      const run = await bench(workers, ['--realtime']);
      assert.equal(run.record.completed, PROMPTS);
      assert.match(run.stdout, /^(Client self-check|WARNING client saturated): .*(, under SCHED_FIFO|; --realtime refused, normal priority: .+)$/m);
    }
  });
});
