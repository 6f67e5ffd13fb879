import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../types.js';
import { compareMetrics } from './compare.js';
import { confidenceLevelOf, groupNoiseChecks, summarizeGroup } from './repeat-groups.js';
import { formatComparison } from './run-views.js';

/** A stored run of group `group` with the given TPOT and throughput. */
function run(id: string, group: string | null, index: number, tpot: number, throughput: number, level?: number): RunRecord {
  return {
    id, recordedAt: '', startedAt: null, model: null, toolVersion: null, source: { kind: 'bench', file: null, contentHash: id },
    args: level === undefined ? null : { extensions: { confidenceLevel: level } },
    metrics: { mean_tpot_ms: tpot, output_throughput: throughput, mean_ttft_ms: 20 }, serverInfo: null, environment: {}, labels: {},
    recipe: null, warnings: [], requestCount: 0, mode: 'simulated', repeat: group === null ? null : { group, run: index, runs: 3 },
  };
}

const same1 = [run('a1', 'g1', 1, 4.0, 580), run('a2', 'g1', 2, 4.1, 585), run('a3', 'g1', 3, 3.9, 590)];
const same2 = [run('b1', 'g2', 1, 4.05, 583), run('b2', 'g2', 2, 3.95, 588), run('b3', 'g2', 3, 4.1, 579)];
const slower = [run('c1', 'g3', 1, 16.0, 430), run('c2', 'g3', 2, 16.3, 425), run('c3', 'g3', 3, 15.8, 436)];

test('two groups of the same configuration differ within the noise; a slower one beyond it', () => {
  const [within] = groupNoiseChecks([same1, same2], 0.95);
  assert.ok(within!.figures.every((figure) => !figure.welch.beyondNoise), 'same configuration: within noise');
  const [beyond] = groupNoiseChecks([same1, slower], 0.95);
  const tpot = beyond!.figures.find((figure) => figure.figure.key === 'mean_tpot_ms')!;
  assert.equal(tpot.welch.beyondNoise, true);
  assert.ok(Math.abs(tpot.welch.difference - 12.033333) < 1e-5);
  // Mean TTFT is 20 ms on every run of both: no spread, no difference, within.
  assert.equal(beyond!.figures.find((figure) => figure.figure.key === 'mean_ttft_ms')!.welch.beyondNoise, false);
});

test('runs measured once, or of the baseline group itself, are not tested', () => {
  assert.deepEqual(groupNoiseChecks([same1, null], 0.95), []);
  assert.deepEqual(groupNoiseChecks([null, same1], 0.95), []);
  assert.deepEqual(groupNoiseChecks([same1, same1], 0.95), []);
});

test("a group's level is the one its runs were measured with, 95% when they do not say", () => {
  assert.equal(confidenceLevelOf(run('x', 'g', 1, 1, 1, 0.99)), 0.99);
  assert.equal(confidenceLevelOf(run('x', 'g', 1, 1, 1)), 0.95);
  assert.equal(summarizeGroup([run('x', 'g', 1, 1, 1, 0.9), run('y', 'g', 2, 2, 2, 0.9)]).level, 0.9);
});

test('compare prints the verdict per figure, and says one run cannot tell', () => {
  const runs = [same1[0]!, slower[0]!];
  const text = formatComparison(runs, compareMetrics(runs), [], groupNoiseChecks([same1, slower], 0.95));
  assert.match(text, /^run-to-run noise, group g3 \(run c1\) vs group g1 \(run a1\), Welch's test at 95%:$/m);
  assert.match(text, /^Mean TPOT \(ms\) +4\.00 ± 0\.25 +16\.03 ± 0\.63 +\+12\.03 +[\d.]+ \.\. [\d.]+ +beyond noise$/m);
  assert.match(text, /^Mean TTFT \(ms\) .* within noise$/m);
  const single = [run('s1', null, 1, 4, 580), same1[0]!];
  assert.match(formatComparison(single, compareMetrics(single), []), /^run-to-run noise: run s1 was measured once, and one run cannot tell a difference from run-to-run noise/m);
});
