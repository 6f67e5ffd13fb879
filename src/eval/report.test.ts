import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestOutput } from '../bench/types.js';
import { formatFailureNotice, formatResultLines, formatSubjectTable, outputThroughput, type EvalSummary } from './report.js';

const summary: EvalSummary = {
  score: {
    overall: { questions: 8, correct: 5, invalid: 1 },
    subjects: [
      { subject: 'abstract_algebra', questions: 3, correct: 2, invalid: 1 },
      { subject: 'college_biology', questions: 5, correct: 3, invalid: 0 },
    ],
  },
  latency: 2.0005,
  outputTokens: 1001,
  synthetic: false,
};

test("SGLang's four lines, three decimals as Python's :.3f (2.0005 is a hair above, as Python reads it)", () => {
  assert.deepEqual(formatResultLines(summary), ['Accuracy: 0.625', 'Invalid: 0.125', 'Latency: 2.001 s', 'Output throughput: 500.375 token/s']);
  assert.equal(outputThroughput({ latency: 0, outputTokens: 5 }), 0);
});

test('against the sim no figure stands where accuracy would', () => {
  const lines = formatResultLines({ ...summary, synthetic: true });
  assert.match(lines[0]!, /^Accuracy: meaningless: servebench sim answers with synthetic text/);
  assert.match(lines[1]!, /^Invalid: meaningless/);
  assert.doesNotMatch(lines.slice(0, 2).join('\n'), /\d/);
  assert.equal(formatSubjectTable({ ...summary, synthetic: true }), null);
});

test('the per-subject table ends with the whole run', () => {
  assert.equal(
    formatSubjectTable(summary),
    [
      'SUBJECT           QUESTIONS  CORRECT  INVALID  ACCURACY',
      '----------------  ---------  -------  -------  --------',
      'abstract_algebra          3        2        1     0.667',
      'college_biology           5        3        0     0.600',
      'all                       8        5        1     0.625',
    ].join('\n'),
  );
  assert.equal(formatSubjectTable({ ...summary, score: { ...summary.score, subjects: [] } }), null);
});

test('failed requests are counted by cause', () => {
  const output = (success: boolean, failureCause: RequestOutput['failureCause']): RequestOutput =>
    ({ success, failureCause }) as RequestOutput;
  assert.equal(formatFailureNotice([output(true, null)]), null);
  assert.equal(
    formatFailureNotice([output(false, 'http_5xx'), output(true, null), output(false, 'timeout'), output(false, 'http_5xx')]),
    '3 of 4 requests failed (http_5xx 2, timeout 1); their answers count as invalid',
  );
});
