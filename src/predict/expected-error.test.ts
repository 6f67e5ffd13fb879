import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatExtendedBlock } from '../bench/output/extras-block.js';
import { parseResultBlock } from '../bench/output/parse-block.js';
import type { CrossValidationSummary } from '../sim/model/efficiency.js';
import {
  formatErrorPercent, formatExpectedErrorNote, formatExpectedErrorSection, sloErrorSuffix, throughputErrorSuffix,
} from './expected-error.js';
import { parseSlo } from '../sweep/slo.js';

/** A realistic cross-validated error, injected: the committed fit may not have one yet. */
const ERROR: CrossValidationSummary = { meanTpot: 0.12, outputThroughput: 0.1, meanTtft: 0.254, cases: 41, groups: 14 };
const METRICS = { meanTpotMs: 25.104, outputThroughput: 1590.714, meanTtftMs: 39.38 };

describe('formatErrorPercent', () => {
  test('whole percents, one decimal below 10% so a small error never reads ±0%', () => {
    assert.deepEqual([0.12, 0.254, 0.0996, 0.034, 0.004, 1.5].map(formatErrorPercent), ['±12%', '±25%', '±10%', '±3.4%', '±0.4%', '±150%']);
  });
});

describe('formatExpectedErrorSection (the extras section of predict)', () => {
  test('the headline predicted figures with their ±, and where the ± comes from', () => {
    assert.deepEqual(formatExpectedErrorSection(METRICS, ERROR), [
      '---------Expected error of the prediction---------',
      'Mean TPOT (ms):                          25.10 (±12%)',
      'Output token throughput (tok/s):         1590.71 (±10%)',
      'Mean TTFT (ms):                          39.38 (±25%)',
      'Expected error:                          median |error| of leave-one-group-out cross-validation over 41 published runs (14 model × hardware groups)',
    ]);
  });

  test('without a cross-validated fit: no ± and no number, one line saying so', () => {
    assert.deepEqual(formatExpectedErrorSection(METRICS, null), [
      '---------Expected error of the prediction---------',
      'Expected error:                          not known yet: the performance model has no cross-validated error',
    ]);
  });

  test('sits before the extras block closing rule, and a log reader skips it (the block keeps its own figures)', () => {
    const extras = { failed: 0, failuresByCause: {}, resentRequests: 0, queueTime: null, requestedRate: Infinity, achievedRate: null, peakInFlight: 0, peakOutputTokensPerS: 0, reasoningTtft: null };
    for (const summary of [ERROR, null]) {
      const section = formatExpectedErrorSection(METRICS, summary);
      const text = formatExtendedBlock(extras, section);
      assert.ok(text.endsWith(`${section.join('\n')}\n${'='.repeat(50)}\n`), text);
      const log = `============ Serving Benchmark Result ============\nMean TPOT (ms):                          30.00     \n${'='.repeat(50)}\n${text}`;
      const parsed = parseResultBlock(log);
      assert.deepEqual(parsed.warnings, []);
      assert.deepEqual(parsed.metrics, { mean_tpot_ms: 30, failed: 0, requested_request_rate: Infinity, peak_in_flight_requests: 0, peak_output_tokens_per_s_1s_window: 0 });
    }
  });
});

describe('the ± of predicted sweep figures', () => {
  test('one note under the table', () => {
    assert.equal(
      formatExpectedErrorNote(ERROR),
      'Predicted figures; expected error ±12% mean TPOT, ±10% output tok/s, ±25% mean TTFT: ' +
        'median |error| of leave-one-group-out cross-validation over 41 published runs (14 model × hardware groups)',
    );
    assert.equal(formatExpectedErrorNote(null), 'Predicted figures; expected error not known yet: the performance model has no cross-validated error');
  });

  test('beside throughput, and beside SLO figures only for the statistics the cross-validation judges (mean TPOT, mean TTFT)', () => {
    assert.equal(throughputErrorSuffix(ERROR), ' (±10%)');
    assert.equal(throughputErrorSuffix(null), '');
    const suffixes = parseSlo('tpot=50ms,ttft=2s,p99-ttft=5s,itl=40ms').targets.map((target) => sloErrorSuffix(target, ERROR));
    assert.deepEqual(suffixes, [' (±12%)', ' (±25%)', '', '']);
    assert.equal(sloErrorSuffix(parseSlo('tpot=50ms').targets[0]!, null), '');
  });
});
