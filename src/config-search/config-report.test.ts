import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CrossValidationSummary } from '../sim/model/efficiency.js';
import { formatRankingTable, formatSeparationSummary, formatSkipped, formatTopLaunches, indistinguishableFromBest } from './config-report.js';
import type { CandidateOutcome } from './config-search.js';

/** A realistic cross-validated error, injected: the committed fit may not have one yet. */
const ERROR: CrossValidationSummary = { meanTpot: 0.12, outputThroughput: 0.1, meanTtft: 0.25, cases: 41, groups: 14 };
const CARDS = 8;

/** An evaluated candidate at concurrency 64 with `perCard` output tok/s per card; null: no load met the SLO. */
function outcome(label: string, perCard: number | null): CandidateOutcome {
  const chosen = perCard === null ? null : {
    load: 64, runId: null, outputs: [], durationSeconds: 1, verdict: null, goodput: null,
    metrics: { output_throughput: perCard * CARDS, mean_ttft_ms: 500, mean_tpot_ms: 20 },
  };
  return {
    candidate: { label, mode: 'pd-mixed', instances: [{ role: 'mixed', replicas: 1, devices: CARDS, flags: ['--tp', '8'] }] },
    skipped: null, chosen, perCard: perCard ?? 0, runs: 5,
  };
}

// Best first, as searchConfigurations returns them: #2 is 5% behind #1, #3 15% behind.
const RANKED = [outcome('TP8', 100), outcome('TP4 DP2', 95), outcome('TP2 DP4', 85), outcome('TP1 DP8', null)];

describe('candidates the expected error cannot separate from the best', () => {
  test('within the output-throughput error of #1: #2 only (never #1 itself or one with no figures)', () => {
    assert.deepEqual([...indistinguishableFromBest(RANKED, ERROR)].map((o) => o.candidate.label), ['TP4 DP2']);
    assert.deepEqual([...indistinguishableFromBest(RANKED, { ...ERROR, outputThroughput: 0.2 })].map((o) => o.candidate.label), ['TP4 DP2', 'TP2 DP4']);
  });

  test('none without a cross-validated error, or when no candidate was evaluated', () => {
    assert.equal(indistinguishableFromBest(RANKED, null).size, 0);
    assert.equal(indistinguishableFromBest([outcome('TP8', null), outcome('TP4', null)], ERROR).size, 0);
  });

  test('the ranking table notes them', () => {
    const rows = formatRankingTable(RANKED, ERROR).split('\n').slice(1);
    assert.deepEqual(rows.map((row) => row.endsWith("  within the model's ±10% of #1")), [false, true, false, false]);
    assert.ok(!formatRankingTable(RANKED, null).includes('within'));
  });

  test('skipped candidates stay out of the ranking and are listed apart, each with its reason', () => {
    const skipped = { ...outcome('TP1 EP8', null), skipped: 'needs 65.5 GB per device' };
    const withSkipped = [...RANKED, skipped];
    const rows = formatRankingTable(withSkipped, ERROR).split('\n').slice(1);
    assert.equal(rows.length, RANKED.length);
    assert.ok(!rows.some((row) => row.includes('TP1 EP8')));
    assert.deepEqual(formatSkipped(withSkipped), ['Skipped 1 configuration that cannot run here (not predicted, not ranked):', '  TP1 EP8: needs 65.5 GB per device']);
    assert.deepEqual(formatSkipped(RANKED), []);
  });

  test('the launch headers say which to confirm with a real sweep', () => {
    const headers = formatTopLaunches(RANKED, { modelPath: 'M', devicesPerNode: 8, top: 3, expectedError: ERROR }).filter((line) => line.startsWith('#'));
    assert.deepEqual(headers, [
      '#1 TP8: 100.0 output tok/s per card at concurrency 64',
      "#2 TP4 DP2: 95.0 output tok/s per card at concurrency 64 (within the model's ±10% of #1: confirm both with a real sweep)",
      '#3 TP2 DP4: 85.0 output tok/s per card at concurrency 64',
    ]);
  });

  test('the summary counts them, says when none is, and never invents an error', () => {
    assert.deepEqual(formatSeparationSummary(RANKED, { ...ERROR, outputThroughput: 0.2 }), [
      "2 configurations are indistinguishable from #1 at the model's accuracy (output tok/s per card within the model's expected error, ±20%, of #1): confirm with a real sweep",
    ]);
    assert.deepEqual(formatSeparationSummary(RANKED, ERROR), [
      "1 configuration is indistinguishable from #1 at the model's accuracy (output tok/s per card within the model's expected error, ±10%, of #1): confirm with a real sweep",
    ]);
    assert.deepEqual(formatSeparationSummary(RANKED, { ...ERROR, outputThroughput: 0.03 }), [
      "No other configuration is indistinguishable from #1 at the model's accuracy (output tok/s per card within the model's expected error, ±3.0%, of #1)",
    ]);
    assert.deepEqual(formatSeparationSummary(RANKED, null), [
      'The performance model has no cross-validated error yet, so how far apart two configurations must be to be told apart is not known: confirm #1 with a real sweep',
    ]);
    assert.deepEqual(formatSeparationSummary([outcome('TP8', null)], ERROR), []);
  });
});
