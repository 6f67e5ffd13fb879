/**
 * The same sweep against the sim in real time (`--sim`) and in prediction mode (`--predict`),
 * both through the built CLI on a small workload: at every load the throughput, mean TPOT and
 * mean TTFT of the two curves are within 10%. Real time on a shared machine is noisy (the sim and
 * the client share one event loop), so a comparison that misses is repeated before it fails.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-sweep-agreement-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

// Steps of tens of ms (a 32B model on two H100s) keep event-loop lag small next to the timings compared.
const LAUNCH = '--model-path Qwen/Qwen3-32B --hardware h100 --tp 2';
const SWEEP = ['--concurrency', '1,2,4', '--prompts-per-load', '4', '--no-catalog'];
// A finite request rate spreads the opening burst: in virtual time simultaneous arrivals are
// batched as one, over loopback they land a few ms apart, which would make the first wave differ.
const WORKLOAD = [
  '--', '--dataset-name', 'random', '--random-input-len', '4096', '--random-output-len', '32', '--random-range-ratio', '0.5',
  '--request-rate', '20', '--seed', '1',
];
const COMPARED = ['output_throughput', 'mean_tpot_ms', 'mean_ttft_ms'];
const TOLERANCE = 0.1;
const ATTEMPTS = 3;

interface Summary {
  mode: string;
  points: Array<{ load: number; metrics: Record<string, number> }>;
}

async function sweep(target: '--sim' | '--predict', name: string): Promise<Summary> {
  const json = join(workDir, `${name}.json`);
  const result = await runCli(['sweep', target, LAUNCH, ...SWEEP, '--json', json, ...WORKLOAD]);
  assert.equal(result.code, 0, result.stderr);
  // Only predictions state an expected error; a real-time sweep measures.
  assert.equal(/^Predicted figures; expected error /m.test(result.stdout), target === '--predict', result.stdout);
  if (target === '--sim') assert.ok(!result.stdout.includes('±'), result.stdout);
  return JSON.parse(readFileSync(json, 'utf8')) as Summary;
}

function disagreements(predicted: Summary, measured: Summary): string[] {
  assert.deepEqual(predicted.points.map((p) => p.load), measured.points.map((p) => p.load));
  return predicted.points.flatMap((point, i) =>
    COMPARED.flatMap((key) => {
      const p = point.metrics[key] as number;
      const m = measured.points[i]!.metrics[key] as number;
      const error = Math.abs(p - m) / m;
      return error <= TOLERANCE ? [] : [`concurrency ${point.load} ${key}: predicted ${p.toFixed(2)}, real time ${m.toFixed(2)} (${(error * 100).toFixed(1)}%)`];
    }),
  );
}

describe('sweep: real-time sim and prediction agree', () => {
  test('throughput, mean TPOT and mean TTFT within 10% at every concurrency', async () => {
    const predicted = await sweep('--predict', 'predict');
    assert.equal(predicted.mode, 'predict');
    let misses: string[] = [];
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const measured = await sweep('--sim', `sim-${attempt}`);
      assert.equal(measured.mode, 'sim');
      misses = disagreements(predicted, measured);
      if (misses.length === 0) break;
    }
    assert.deepEqual(misses, []);
  });
});

describe('sweep --sim on an engine too fast for this machine', () => {
  test('each point runs time-scaled, and says so', async () => {
    const json = join(workDir, 'scaled.json');
    const result = await runCli([
      'sweep', '--sim', '--model-path Qwen/Qwen2.5-0.5B-Instruct --hardware h100', '--concurrency', '8', '--no-catalog', '--json', json,
      '--', '--dataset-name', 'random', '--random-input-len', '64', '--random-output-len', '16', '--num-prompts', '32', '--seed', '1',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^concurrency 8: .*; engine (\d+)x slower than the wall clock, times divided by \1$/m);
  });
});
