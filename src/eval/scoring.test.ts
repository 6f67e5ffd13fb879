import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accuracyOf, invalidRateOf, NO_SUBJECT, scoreAnswers } from './scoring.js';
import { evalTask, gradeReply } from './tasks.js';

const right = { extracted: 'A', correct: true };
const wrong = { extracted: 'B', correct: false };
const invalid = { extracted: null, correct: false };

test('overall and per-subject tallies; subjects sorted by name', () => {
  const score = scoreAnswers([right, wrong, invalid, right, invalid], ['zoology', 'algebra', 'zoology', 'algebra', 'algebra']);
  assert.deepEqual(score.overall, { questions: 5, correct: 2, invalid: 2 });
  assert.deepEqual(score.subjects, [
    { subject: 'algebra', questions: 3, correct: 1, invalid: 1 },
    { subject: 'zoology', questions: 2, correct: 1, invalid: 1 },
  ]);
  assert.equal(accuracyOf(score.overall), 0.4);
  assert.equal(invalidRateOf(score.overall), 0.4);
  assert.equal(accuracyOf({ questions: 0, correct: 0, invalid: 0 }), 0);
});

test('no subjects when no question has one; a missing one among others is grouped as (none)', () => {
  assert.deepEqual(scoreAnswers([right, wrong], [null, null]).subjects, []);
  assert.deepEqual(scoreAnswers([right, wrong], ['Physics', null]).subjects.map((s) => s.subject), [NO_SUBJECT, 'Physics']);
});

test('grading: an answer is correct only when extraction finds the reference; an empty reply (a failed request) is invalid', () => {
  const gsm8k = evalTask('gsm8k');
  const question = { subject: null, question: 'q', prompt: 'p', reference: '1234' };
  assert.deepEqual(gradeReply(gsm8k, question, 'so 1,234 in all'), { extracted: '1234', correct: true });
  assert.deepEqual(gradeReply(gsm8k, question, 'so 1,235'), { extracted: '1235', correct: false });
  assert.deepEqual(gradeReply(gsm8k, question, ''), { extracted: null, correct: false });
  const mmlu = evalTask('mmlu');
  assert.deepEqual(gradeReply(mmlu, { ...question, reference: 'C' }, ' C'), { extracted: 'C', correct: true });
  const gpqa = evalTask('gpqa');
  assert.deepEqual(gradeReply(gpqa, { ...question, reference: 'B' }, 'answer: b'), { extracted: 'b', correct: false });
});
