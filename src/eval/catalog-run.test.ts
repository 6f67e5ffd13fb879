import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestOutput } from '../bench/types.js';
import { evalRunInput, type EvalRunParts } from './catalog-run.js';

function output(success: boolean, outputLen: number): RequestOutput {
  return {
    generatedText: success ? ' B' : '',
    success,
    latency: success ? 0.5 : 0,
    ttft: 0.1,
    itl: [],
    textChunks: [],
    promptLen: 0,
    error: success ? '' : 'HTTP 500',
    outputLen,
    startTime: 10,
    queueTime: 0,
    failureCause: success ? null : 'http_5xx',
  };
}

const parts: EvalRunParts = {
  task: 'mmlu',
  numShots: 5,
  summary: {
    score: {
      overall: { questions: 4, correct: 2, invalid: 1 },
      subjects: [
        { subject: 'anatomy', questions: 1, correct: 1, invalid: 0 },
        { subject: 'virology', questions: 3, correct: 1, invalid: 1 },
      ],
    },
    latency: 2,
    outputTokens: 3,
    synthetic: false,
  },
  outputs: [output(true, 1), output(true, 1), output(true, 1), output(false, 0)],
  args: { task: 'mmlu', header: ['Authorization: Bearer x'] },
  model: 'Qwen/Qwen3-8B',
  serverInfo: { tp_size: 2, version: '0.5.6' },
  startedAt: new Date('2026-01-31T12:00:00Z'),
  toolVersion: 'servebench 0.1.0',
  answersFile: 'eval-mmlu.jsonl',
  labels: { hardware: 'H100' },
};

test('an eval run: kind eval, the four figures and their counts, accuracy per subject, a title with the accuracy', () => {
  const run = evalRunInput(parts);
  assert.equal(run.source.kind, 'eval');
  assert.equal(run.source.file, 'eval-mmlu.jsonl');
  assert.equal(run.source.title, 'mmlu 5-shot: accuracy 0.500 over 4 questions');
  assert.deepEqual(run.metrics, {
    task: 'mmlu',
    num_shots: 5,
    questions: 4,
    accuracy: 0.5,
    invalid: 0.25,
    correct: 2,
    answers: 'scored',
    completed: 3,
    failed: 1,
    latency: 2,
    output_throughput: 1.5,
    total_output_tokens: 3,
    'accuracy.anatomy': 1,
    'accuracy.virology': 1 / 3,
  });
  assert.equal(run.requests?.length, 4);
  assert.ok(run.requests?.every((request) => request.promptLen === null));
  assert.equal(run.requests?.[3]?.cause, 'http_5xx');
  assert.deepEqual(run.serverInfo, parts.serverInfo);
  assert.deepEqual(run.recipe?.instances.map((i) => [i.role, i.launcher, i.config]), [['mixed', 'sglang 0.5.6', { tpSize: 2 }]]);
  assert.deepEqual(run.labels, { hardware: 'H100' });
});

test('against the sim nothing is scored: accuracy, invalid and correct are null and no subject has a figure', () => {
  const run = evalRunInput({ ...parts, summary: { ...parts.summary, synthetic: true } });
  assert.equal(run.metrics.answers, 'synthetic');
  assert.equal(run.metrics.accuracy, null);
  assert.equal(run.metrics.invalid, null);
  assert.equal(run.metrics.correct, null);
  assert.deepEqual(Object.keys(run.metrics).filter((key) => key.startsWith('accuracy.')), []);
  assert.equal(run.source.title, 'mmlu 5-shot: against servebench sim, answers synthetic, no accuracy');
});

test('the same results at another start time are another run', () => {
  const later = evalRunInput({ ...parts, startedAt: new Date('2026-01-31T12:00:01Z') });
  assert.notEqual(later.source.contentHash, evalRunInput(parts).source.contentHash);
  assert.equal(evalRunInput(parts).source.contentHash, evalRunInput(parts).source.contentHash);
});
