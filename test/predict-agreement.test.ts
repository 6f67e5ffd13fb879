/**
 * `servebench predict` against `servebench bench --sim` of the same deployment and
 * seed (both the built CLI): the counted quantities are identical and the timing figures agree
 * within run-to-run noise. Real time on a shared 2-core machine is noisy, so a comparison that
 * misses is repeated before it fails (as the bench CLI tests do).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-agreement-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

// Steps of tens of ms (a 32B model on two H100s) keep event-loop lag small next to the timings compared.
const LAUNCH = ['--model-path', 'Qwen/Qwen3-32B', '--hardware', 'h100', '--tp', '2'];
// --flush-cache: without it the first request reuses the warmup's cached prefill in the sim (the
// warmup replays row 0), which the virtual-time client does not model.
const WORKLOAD = [
  '--dataset-name', 'random', '--random-input-len', '4096', '--random-output-len', '32', '--random-range-ratio', '0.5',
  '--num-prompts', '16', '--max-concurrency', '4', '--request-rate', '20', '--seed', '1', '--flush-cache', '--disable-tqdm',
];
/**
 * Timing figures compared, with the tolerated relative difference. Medians and tails are left
 * out: the opening burst arrives at one instant in virtual time but a few ms apart over loopback,
 * so it is batched differently, which moves the median TTFT while the means stay put.
 */
const TIMING = ['duration', 'output_throughput', 'mean_ttft_ms', 'mean_tpot_ms', 'mean_itl_ms', 'mean_e2e_latency_ms'];
const TOLERANCE = 0.1;
const ATTEMPTS = 3;

type JsonRecord = Record<string, unknown>;

function readRecord(path: string): JsonRecord {
  const line = readFileSync(path, 'utf8').trim().split('\n').at(-1) as string;
  return JSON.parse(line.replace(/\bInfinity\b/g, '1e999').replace(/\bNaN\b/g, 'null')) as JsonRecord;
}

interface Agreement {
  name: string;
  /** predict's launch words; `--prefill` / `--decode` values are one word each, as a shell passes them. */
  launch: readonly string[];
  workload: readonly string[];
  /** Tolerated relative difference of every TIMING figure, or of each figure by name. */
  tolerance: number | Readonly<Record<string, number>>;
}

/** The launch words as one `--sim "<flags>"` string, words with spaces quoted. */
function simFlags(launch: readonly string[]): string {
  return launch.map((word) => (/\s/.test(word) ? `"${word}"` : word)).join(' ');
}

async function predicted(run: Agreement): Promise<JsonRecord> {
  const file = join(workDir, `${run.name}-predict.jsonl`);
  const result = await runCli(['predict', ...run.launch, '--', ...run.workload, '--output-file', file]);
  assert.equal(result.code, 0, result.stderr);
  return readRecord(file);
}

async function measured(run: Agreement, attempt: number): Promise<{ record: JsonRecord; stdout: string }> {
  const file = join(workDir, `${run.name}-sim-${attempt}.jsonl`);
  const result = await runCli(['bench', '--sim', simFlags(run.launch), ...run.workload, '--output-file', file, '--no-catalog']);
  assert.equal(result.code, 0, result.stderr);
  return { record: readRecord(file), stdout: result.stdout };
}

function disagreements(prediction: JsonRecord, measurement: JsonRecord, tolerances: Agreement['tolerance']): string[] {
  return TIMING.flatMap((key) => {
    const tolerance = typeof tolerances === 'number' ? tolerances : tolerances[key]!;
    const p = prediction[key] as number;
    const m = measurement[key] as number;
    const error = Math.abs(p - m) / m;
    return error <= tolerance ? [] : [`${key}: predicted ${p.toFixed(2)}, measured ${m.toFixed(2)} (${(error * 100).toFixed(1)}%)`];
  });
}

/** Runs the sim until its timing agrees with the prediction (at most ATTEMPTS runs); returns the last run and its misses. */
async function compare(run: Agreement): Promise<{ misses: string[]; last: { record: JsonRecord; stdout: string } }> {
  const prediction = await predicted(run);
  let misses: string[] = [];
  let last: { record: JsonRecord; stdout: string } | null = null;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    last = await measured(run, attempt);
    for (const key of ['completed', 'total_input_tokens', 'total_output_tokens']) {
      assert.equal(prediction[key], last.record[key], key);
    }
    misses = disagreements(prediction, last.record, run.tolerance);
    if (misses.length === 0) break;
  }
  return { misses, last: last! };
}

describe('predict agrees with the sim it models, driven over loopback', () => {
  test('steps of tens of ms: same counts; timing within 10%', async () => {
    const { misses } = await compare({ name: 'slow-steps', launch: LAUNCH, workload: WORKLOAD, tolerance: TOLERANCE });
    assert.deepEqual(misses, []);
  });

  test('an engine too fast for this machine runs time-scaled and agrees within 5%', async () => {
    // Steps of ~1.7 ms for 16 streams: faster than a 2-core machine writes and reads on time.
    const { misses, last } = await compare({
      name: 'time-scaled',
      launch: ['--model-path', 'Qwen/Qwen2.5-0.5B-Instruct', '--hardware', 'h100'],
      workload: [
        '--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '100',
        '--max-concurrency', '16', '--seed', '1', '--flush-cache', '--disable-tqdm',
      ],
      tolerance: 0.05,
    });
    assert.deepEqual(misses, []);
    const timeScale = (last.record.servebench as { sim_time_scale: number }).sim_time_scale;
    assert.ok(timeScale > 1, `time scale ${timeScale}`);
    assert.match(last.stdout, new RegExp(`the engine ran ${timeScale}x slower than the wall clock and every time above is divided by ${timeScale}`));
    assert.doesNotMatch(last.stdout, /WARNING/);
  });

  test('a PD deployment (prefill and decode sims behind the router) agrees within 5% on TPOT and 10% on TTFT', async () => {
    const { misses, last } = await compare({
      name: 'pd',
      launch: ['--model-path', 'Qwen/Qwen3-32B', '--hardware', 'h100', '--prefill', '--tp 2', '--decode', '--tp 2'],
      workload: WORKLOAD,
      tolerance: { mean_tpot_ms: 0.05, mean_itl_ms: 0.05, mean_ttft_ms: 0.1, mean_e2e_latency_ms: 0.1, duration: 0.1, output_throughput: 0.1 },
    });
    assert.deepEqual(misses, []);
    assert.doesNotMatch(last.stdout, /WARNING/);
  });
});
