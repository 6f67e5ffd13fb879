import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestOutput } from '../bench/types.js';
import { gradeRun } from './results.js';
import { evalTask } from './tasks.js';

function reply(generatedText: string, outputLen: number, success = true): RequestOutput {
  return { generatedText, outputLen, success } as RequestOutput;
}

test('each reply graded against its question; the tokens of failed requests are not counted', () => {
  const questions = ['7', '8', '9'].map((reference) => ({ subject: null, question: 'q', prompt: 'p', reference }));
  const { graded, summary } = gradeRun(evalTask('gsm8k'), questions, [reply(' it is 7', 3), reply(' maybe 9', 2), reply('', 512, false)], 1.5, false);
  assert.deepEqual(graded, [
    { extracted: '7', correct: true },
    { extracted: '9', correct: false },
    { extracted: null, correct: false },
  ]);
  assert.deepEqual(summary, { score: { overall: { questions: 3, correct: 1, invalid: 1 }, subjects: [] }, latency: 1.5, outputTokens: 5, synthetic: false });
});
