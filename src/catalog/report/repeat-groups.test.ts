import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../types.js';
import { compareMetrics } from './compare.js';
import { confidenceLevelOf, groupNoiseChecks, summarizeGroup } from './repeat-groups.js';
import { formatComparison, formatRunDetails, formatRunList } from './run-views.js';
import { groupByLatencyClass, parseClasses } from './best-practice.js';
import { renderBestPractice } from './best-practice-render.js';

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

test('the runs list shows each run\'s place in its group, then each group\'s means with intervals', () => {
  const text = formatRunList([same1[1]!, run('s1', null, 1, 5, 500)], new Map([['g1', summarizeGroup(same1)]]));
  assert.match(text, /^ID .* REPEAT +WARN +SOURCE$/m);
  assert.match(text, /^a2 .* g1:2\/3 +0 +bench$/m);
  assert.match(text, /^s1 .* - +0 +bench$/m);
  assert.match(text, /^repeat groups:\n {2}group g1 \(3 runs, 95% CI\): Output token throughput \(tok\/s\) 585\.00 ± 12\.42, Mean TTFT \(ms\) 20\.00 ± 0\.00, Mean TPOT \(ms\) 4\.00 ± 0\.25$/m);
});

test('show names the group and its runs, with every figure over them', () => {
  const text = formatRunDetails(same1[2]!, [], same1, summarizeGroup(same1));
  assert.match(text, /^repeated runs:\n {2}run 3 of 3 of group g1: a1 a2 a3\n {2}FIGURE +OVER THE RUNS$/m);
  assert.match(text, /^ {2}Mean TPOT \(ms\) +4\.00 ± 0\.25 \(95% CI, 3 runs\), CV 2\.5%$/m);
  assert.doesNotMatch(formatRunDetails(run('s1', null, 1, 5, 500)), /repeated runs/);
});

test("the best-practice table has one row per group: the runs' means, ± their intervals", () => {
  const onTwoCards = same1.map((r) => ({ ...r, labels: { cards: '2' } }));
  const [group] = groupByLatencyClass([...onTwoCards, run('s1', null, 1, 5, 500)], parseClasses('fast:<=10'));
  assert.equal(group!.rows.length, 2);
  const row = group!.rows.find((r) => r.interval !== undefined)!;
  assert.equal(row.runId, 'a1');
  assert.ok(Math.abs(row.meanTpotMs! - 4) < 1e-12);
  assert.equal(row.interval!.runs, 3);
  const markdown = renderBestPractice([group!], 'md');
  // Per card: 585 ± 12.42 tok/s over 2 cards.
  assert.match(markdown, /\| 2 \| .* \| 4\.00 ± 0\.25 \| 292\.50 ± 6\.21 \| run a1 \|/);
  assert.match(markdown, /^± half-width of the 95% confidence interval of the mean over a repeat group's runs/m);
  assert.match(renderBestPractice([group!], 'csv'), /,3,0\.95,0\.25,6\.21\n/);
});
