/**
 * `servebench sweep --search-configs` end to end (the built CLI): Qwen3-32B on 8 Ascend 910C
 * dies and DeepSeek-V3.2 on 8 B200 each print a ranking and the launch commands of the best
 * configurations within a minute; configurations that cannot fit are listed with the reason.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { storedCrossValidation } from '../src/sim/model/efficiency.js';
import { formatExpectedErrorNote } from '../src/predict/expected-error.js';
import { runCli } from './helpers/cli.js';

const workDir = mkdtempSync(join(tmpdir(), 'servebench-configs-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

interface Ranking {
  devices: number;
  cards: number;
  ranking: Array<{
    label: string; mode: string; skipped: string | null; concurrency: number | null; output_tokens_per_s_per_card: number | null; runs: number;
    metrics: Record<string, number> | null; within_expected_error_of_best: boolean;
  }>;
}

const CASES = [
  {
    name: 'Qwen3-32B on 8 Ascend 910C dies',
    args: ['--model-path', 'Qwen/Qwen3-32B', '--hardware', 'ascend-910c', '--devices', '8', '--slo', 'tpot=50ms,ttft=10s'],
    workload: ['--random-input-len', '2048', '--random-output-len', '256', '--random-range-ratio', '1'],
    cards: 4,
    tpotLimitMs: 50,
  },
  {
    name: 'DeepSeek-V3.2 on 8 B200',
    args: ['--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', 'b200', '--devices', '8', '--slo', 'tpot=50ms,ttft=5s'],
    workload: ['--random-input-len', '1024', '--random-output-len', '256', '--random-range-ratio', '1'],
    cards: 8,
    tpotLimitMs: 50,
  },
];

describe('configuration search', () => {
  for (const c of CASES) {
    test(`${c.name}: ranked launch commands in under a minute`, async () => {
      const json = join(workDir, `${c.cards}.json`);
      const started = Date.now();
      const result = await runCli(['sweep', '--search-configs', ...c.args, '--top', '3', '--json', json, '--', '--dataset-name', 'random', ...c.workload]);
      const seconds = (Date.now() - started) / 1000;
      assert.equal(result.code, 0, result.stderr);
      assert.ok(seconds < 60, `took ${seconds.toFixed(1)} s`);

      const launches = result.stdout.split('\n').filter((line) => /^#\d /.test(line));
      assert.equal(launches.length, 3, result.stdout);
      assert.match(result.stdout, /^  python -m sglang\.launch_server --model-path \S+ --tp \d+/m);
      assert.match(result.stdout, /^Searched \d+ configurations with \d+ predictions in [\d.]+ s$/m);

      const report = JSON.parse(readFileSync(json, 'utf8')) as Ranking;
      assert.equal(report.cards, c.cards);
      const evaluated = report.ranking.filter((r) => r.output_tokens_per_s_per_card !== null);
      assert.ok(evaluated.length >= 3);
      // Best first, and every ranked point meets the TPOT limit.
      for (let i = 1; i < evaluated.length; i += 1) {
        assert.ok((evaluated[i - 1]!.output_tokens_per_s_per_card as number) >= (evaluated[i]!.output_tokens_per_s_per_card as number));
      }
      for (const r of evaluated) assert.ok((r.metrics?.mean_tpot_ms ?? Infinity) <= c.tpotLimitMs, `${r.label}: ${r.metrics?.mean_tpot_ms}`);
      // One device cannot hold either model: those layouts are skipped with the memory reason.
      assert.ok(report.ranking.some((r) => r.label.startsWith('TP1 DP8') && /needs [\d.]+ GB per (die|GPU)/.test(r.skipped ?? '')));
      // Progress names the pass; the refined candidates print the figures the ranking shows; skipped ones are listed apart.
      const lines = result.stdout.split('\n');
      assert.match(result.stdout, /^First pass: every configuration's SLO knee to within 20% of its load; then the best 3 refined to within 5% \(the ranking shows the refined figures\)$/m);
      assert.ok(lines.some((line) => /^\[\d+\/\d+\] first pass: TP1 DP8\S*: skipped \(.*needs [\d.]+ GB per (die|GPU)/.test(line)), result.stdout);
      const refinedLines = lines.filter((line) => line.startsWith('[refined] '));
      assert.equal(refinedLines.length, 3, result.stdout);
      for (const r of evaluated.slice(0, 3)) {
        assert.ok(refinedLines.includes(`[refined] ${r.label}: ${(r.output_tokens_per_s_per_card as number).toFixed(1)} tok/s per card at concurrency ${r.concurrency} (${r.runs} predictions)`), `${r.label}\n${result.stdout}`);
      }
      const skippedAt = lines.findIndex((line) => /^Skipped \d+ configurations? that cannot run here \(not predicted, not ranked\):$/.test(line));
      assert.ok(skippedAt > 0, result.stdout);
      const blankAfter = lines.indexOf('', skippedAt);
      const listed = lines.slice(skippedAt + 1, blankAfter);
      assert.deepEqual(listed, report.ranking.filter((r) => r.skipped !== null).map((r) => `  ${r.label}: ${r.skipped}`));
      assert.ok(!lines.some((line) => /^\s*\d+\s+TP1 DP8/.test(line)), 'a skipped configuration has no rank');
      // PD splits are part of the space.
      assert.ok(report.ranking.some((r) => r.mode === 'pd-separated'));

      // Candidates the stored fit's expected error cannot separate from #1 are marked and counted (none without a fit).
      const expectedError = storedCrossValidation();
      assert.ok(result.stdout.split('\n').includes(formatExpectedErrorNote(expectedError)), result.stdout);
      const best = evaluated[0]!.output_tokens_per_s_per_card as number;
      const close = evaluated.slice(1).filter((r) => expectedError !== null && (r.output_tokens_per_s_per_card as number) >= best * (1 - expectedError.outputThroughput));
      assert.deepEqual(report.ranking.filter((r) => r.within_expected_error_of_best).map((r) => r.label), close.map((r) => r.label));
      const caveats = launches.filter((line) => line.endsWith(': confirm both with a real sweep)')).length;
      assert.equal(caveats, close.filter((r) => evaluated.indexOf(r) < 3).length);
      if (expectedError === null) {
        assert.match(result.stdout, /^The performance model has no cross-validated error yet, so how far apart two configurations must be to be told apart is not known/m);
      } else if (close.length === 0) {
        assert.match(result.stdout, /^No other configuration is indistinguishable from #1 at the model's accuracy/m);
      } else {
        assert.match(result.stdout, new RegExp(`^${close.length} configurations? (is|are) indistinguishable from #1 at the model's accuracy`, 'm'));
      }
    });
  }
});
