/**
 * `servebench sim` as a real process, driven by `servebench bench` on every backend bench accepts
 * (all but `gserver`): each run completes, counts the tokens the sim sent, and measures latencies
 * near what `servebench predict` gives for the same workload. This checks the wiring of every wire
 * format end to end, not the calibration, so the timing bands are broad.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKEND_CHOICES } from '../src/bench/args/types.js';
import { isChatBackend } from '../src/bench/backends/index.js';
import { parsePythonJson } from '../src/catalog/ingest/jsonl.js';
import { runCli } from './helpers/cli.js';
import { spawnSim, type SimProcess } from './helpers/sim-process.js';

const MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
/** The reasoning parser makes every chat answer think first, so chat backends see both phases. */
const LAUNCH = ['--model-path', MODEL, '--hardware', 'h100', '--reasoning-parser', 'qwen3'];
const PROMPTS = 16;
const OUTPUT_LEN = 16;
const WORKLOAD = [
  '--model', MODEL, '--dataset-name', 'random', '--random-input-len', '32', '--random-output-len', String(OUTPUT_LEN),
  '--random-range-ratio', '1', '--num-prompts', String(PROMPTS), '--disable-tqdm',
];
const BACKENDS = BACKEND_CHOICES.filter((b) => b !== 'gserver');
/** A measurement within [÷2, ×5] of the prediction: wrong wiring is off by far more, a busy machine is not. */
const BAND = [0.5, 5] as const;

/** The JSONL record bench appended to `file` (Python's json: `Infinity` for an unlimited rate). */
function record(file: string): any {
  return parsePythonJson(readFileSync(file, 'utf8').trim().split('\n').at(-1)!);
}

function assertNear(measured: number, predicted: number, what: string): void {
  assert.ok(measured >= predicted * BAND[0] && measured <= predicted * BAND[1], `${what} ${measured.toFixed(2)} ms, predicted ${predicted.toFixed(2)} ms`);
}

describe('servebench bench on every backend against a servebench sim process', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'servebench-sim-backends-'));
  let sim: SimProcess | undefined;
  let predicted: any;

  before(async () => {
    const predictFile = join(workDir, 'predict.jsonl');
    const [started, prediction] = await Promise.all([
      spawnSim([...LAUNCH, '--port', '0', '--host', '127.0.0.1']),
      runCli(['predict', ...LAUNCH, '--', '--backend', 'sglang', ...WORKLOAD, '--output-file', predictFile]),
    ]);
    sim = started;
    assert.equal(prediction.code, 0, prediction.stderr);
    predicted = record(predictFile);
  });
  after(() => {
    sim?.child.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
  });

  for (const backend of BACKENDS) {
    test(backend, async () => {
      const file = join(workDir, `${backend}.jsonl`);
      const result = await runCli(['bench', '--backend', backend, '--base-url', sim!.url, ...WORKLOAD, '--no-catalog', '--output-file', file]);
      assert.equal(result.code, 0, result.stderr);
      const r = record(file);
      assert.equal(r.completed, PROMPTS);
      assert.equal(r.servebench.failed, 0);
      // ignore_eos (min_length for trt): every answer runs to the requested length.
      assert.equal(r.total_output_tokens, PROMPTS * OUTPUT_LEN);
      assertNear(r.mean_e2e_latency_ms, predicted.mean_e2e_latency_ms, 'E2E latency');
      if (isChatBackend(backend)) {
        // 30–70 % of each answer is reasoning_content: TTFT is the first content token, and only
        // content is retokenized, while the count is the server's usage.
        assert.equal(r.servebench.reasoning_ttft_ms.count, PROMPTS);
        assertNear(r.servebench.reasoning_ttft_ms.mean, predicted.mean_ttft_ms, 'reasoning TTFT');
        assert.ok(r.mean_ttft_ms > r.servebench.reasoning_ttft_ms.mean, 'content comes after reasoning');
        const contentTokens = r.total_output_tokens_retokenized;
        assert.ok(contentTokens >= PROMPTS * 5 && contentTokens <= PROMPTS * 11, `${contentTokens} content tokens`);
      } else {
        assert.equal(r.servebench.reasoning_ttft_ms, null);
        // The text retokenizes to the tokens sent, whether bench counts them (native, completions)
        // or takes the requested length (trt, truss).
        assert.equal(r.total_output_tokens_retokenized, PROMPTS * OUTPUT_LEN);
        assertNear(r.mean_ttft_ms, predicted.mean_ttft_ms, 'TTFT');
        assertNear(r.mean_tpot_ms, predicted.mean_tpot_ms, 'TPOT');
      }
    });
  }
});
