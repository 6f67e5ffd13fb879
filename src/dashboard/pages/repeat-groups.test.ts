import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repeatGroupChecks, summarizeGroup, type RunRecord } from '../../catalog/index.js';
import { renderComparePage } from './compare.js';
import { renderRunPage } from './run.js';

function run(id: string, group: string, index: number, tpot: number): RunRecord {
  return {
    id, recordedAt: '2026-11-20T10:00:00.000Z', startedAt: null, model: 'Qwen/Qwen2.5-0.5B-Instruct', toolVersion: null,
    source: { kind: 'bench', file: null, contentHash: id }, args: null, metrics: { mean_tpot_ms: tpot, output_throughput: 1000 / tpot },
    serverInfo: null, environment: {}, labels: {}, recipe: null, warnings: [], requestCount: 0, mode: 'simulated', repeat: { group, run: index, runs: 3 },
  };
}

const fast = [run('aaaa00000001', 'gfast', 1, 4.0), run('aaaa00000002', 'gfast', 2, 4.1), run('aaaa00000003', 'gfast', 3, 3.9)];
const slow = [run('bbbb00000001', 'gslow', 1, 16.0), run('bbbb00000002', 'gslow', 2, 16.2), run('bbbb00000003', 'gslow', 3, 15.9)];
const groups: Record<string, RunRecord[]> = { gfast: fast, gslow: slow };

test('a run of a repeat group links its group and shows every figure over the runs', () => {
  const page = renderRunPage(fast[1]!, [], [], fast, summarizeGroup(fast));
  assert.match(page, /Run 2 of 3 of repeat group <code>gfast<\/code>: <a href="\/runs\/aaaa00000001">/);
  assert.match(page, /<tr data-figure="mean_tpot_ms"><th>Mean TPOT \(ms\)<\/th><td class="num">4\.00 ± 0\.25 \(95% CI, 3 runs\), CV 2\.5%<\/td><\/tr>/);
});

test('compare tests the groups figure by figure; the verdict says beyond or within noise', () => {
  const runs = [fast[0]!, slow[0]!];
  const page = renderComparePage(runs, [[], []], [], repeatGroupChecks(runs, (group) => groups[group]!));
  assert.match(page, /Group <code>gslow<\/code> vs\. <code>gfast<\/code> <small class="sub">Welch's test at 95%<\/small>/);
  assert.match(page, /<tr data-figure="mean_tpot_ms"><th>Mean TPOT \(ms\)<\/th><td class="num">4\.00 ± 0\.25<\/td>\n<td class="num">16\.03 ± 0\.38<\/td>.*\n.*beyond noise<\/td><\/tr>/);
  assert.doesNotMatch(page, /id="measured-once"/);
});
