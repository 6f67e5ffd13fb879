import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pythonJsonDumps } from '../../core/pyjson.js';
import { parseBenchArgs } from '../args/parse.js';
import { summarizeRepeatedRuns } from '../metrics/repeated-runs.js';
import { formatRepeatedBlock, repeatedRunsNotes } from './repeated-block.js';
import { buildRepeatedRunsRecord } from './record.js';

/** Three runs keyed like the JSONL record; mean TTFT disagrees by far more than 5%. */
const RUNS = [
  { output_throughput: 1000, mean_ttft_ms: 50, p99_ttft_ms: 90, mean_tpot_ms: 1.74, p99_tpot_ms: 3, mean_itl_ms: 1.7, p99_itl_ms: 4, mean_e2e_latency_ms: 300 },
  { output_throughput: 1010, mean_ttft_ms: 60, p99_ttft_ms: 95, mean_tpot_ms: 1.75, p99_tpot_ms: 3, mean_itl_ms: 1.7, p99_itl_ms: 4, mean_e2e_latency_ms: 301 },
  { output_throughput: 990, mean_ttft_ms: 70, p99_ttft_ms: 99, mean_tpot_ms: 1.76, p99_tpot_ms: 3, mean_itl_ms: 1.7, p99_itl_ms: 4, mean_e2e_latency_ms: 299 },
];

test("one line per figure in the block's style: mean ± half-width, level, runs, CV", () => {
  const block = formatRepeatedBlock(summarizeRepeatedRuns(RUNS, 0.95));
  const lines = block.trimEnd().split('\n');
  assert.equal(lines[0], '-------------servebench repeated runs-------------');
  assert.equal(lines.at(-1), '='.repeat(50));
  assert.equal(lines.length, 10);
  // t(0.975, 2) · 0.01 / √3 = 0.0248
  assert.ok(lines.includes(`${'Mean TPOT (ms):'.padEnd(40)} 1.75 ± 0.02 (95% CI, 3 runs), CV 0.6%`));
  assert.ok(lines.includes(`${'Mean ITL (ms):'.padEnd(40)} 1.70 ± 0.00 (95% CI, 3 runs), CV 0.0%`));
});

test('a headline figure with a CV above 5% gets a note naming it; tails and steady figures do not', () => {
  const notes = repeatedRunsNotes(summarizeRepeatedRuns(RUNS, 0.95));
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /^note: the runs disagree on Mean TTFT \(ms\): CV 16\.7% \(above 5\.0%\)/);
});

test('a figure missing from a run is left out of the summary', () => {
  const [first, ...rest] = RUNS;
  const { output_throughput: _dropped, ...withoutThroughput } = first!;
  const summary = summarizeRepeatedRuns([withoutThroughput, ...rest], 0.9);
  assert.equal(summary.figures.some((figure) => figure.figure.key === 'output_throughput'), false);
  assert.equal(summary.level, 0.9);
});

test('the aggregate record: the runs\' arguments, then each figure\'s mean, half-width, CV and values', () => {
  const args = parseBenchArgs(['--dataset-name', 'random', '--label', 'gpu=h100']);
  const record = buildRepeatedRunsRecord(args, 'abc123', summarizeRepeatedRuns(RUNS, 0.95));
  const json = JSON.parse(pythonJsonDumps(record).replace(/\bInfinity\b/g, '1e999'));
  assert.equal(json.dataset_name, 'random');
  assert.equal(json.servebench.repeat_summary.group, 'abc123');
  assert.deepEqual(json.servebench.repeat_summary.figures.mean_ttft_ms.values, [50, 60, 70]);
  assert.equal(json.servebench.repeat_summary.figures.mean_ttft_ms.mean, 60);
  assert.deepEqual(json.servebench.repeat_summary.noisy, ['mean_ttft_ms']);
  assert.deepEqual(json.servebench.labels, { gpu: 'h100' });
  assert.equal('duration' in json, false, 'no run of its own');
});
