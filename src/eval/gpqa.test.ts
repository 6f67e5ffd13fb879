import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError, UserError } from '../core/errors.js';
import { answerLineLetter, gpqaQuestions, parseGpqaCsv } from './gpqa.js';

const HEADER = 'Record ID,Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3,High-level domain';
const ROWS = ['q0', 'q1', 'q2', 'q3', 'q4'].map((q, i) => `r${i},${q}?,right ${i},wrong ${i}a,wrong ${i}b,wrong ${i}c,${i % 2 === 0 ? 'Physics' : 'Biology'}`);
const CSV = [HEADER, ...ROWS].join('\n');

/** The order of (correct, wrong a, wrong b, wrong c) each question shows, by index into that list. */
function orders(prompts: readonly string[]): number[][] {
  return prompts.map((prompt) =>
    ['A', 'B', 'C', 'D'].map((letter) => {
      const text = new RegExp(`^${letter}\\) (.*)$`, 'm').exec(prompt)![1]!;
      return text.startsWith('right') ? 0 : ' abc'.indexOf(text.at(-1)!);
    }),
  );
}

test("answer orders are Python's random.Random(seed).sample(range(4), 4), question after question (seed 0: SGLang's)", () => {
  const questions = gpqaQuestions(parseGpqaCsv(CSV, 'gpqa.csv'), { numQuestions: null, numShots: 0, seed: 0 });
  // Printed by CPython 3: r = random.Random(0); [r.sample(range(4), 4) for _ in range(5)]
  assert.deepEqual(orders(questions.map((q) => q.prompt)), [[3, 1, 0, 2], [3, 1, 2, 0], [2, 3, 0, 1], [2, 0, 3, 1], [1, 3, 0, 2]]);
  assert.deepEqual(questions.map((q) => q.reference), ['C', 'D', 'C', 'B', 'C']);
  assert.deepEqual(questions.map((q) => q.subject), ['Physics', 'Biology', 'Physics', 'Biology', 'Physics']);
});

test('--num-questions draws the questions first from the same generator, as simple-evals does', () => {
  const questions = gpqaQuestions(parseGpqaCsv(CSV, 'gpqa.csv'), { numQuestions: 3, numShots: 0, seed: 0 });
  // r = random.Random(0); r.sample(rows, 3) → rows 3, 4, 0; then the three orders.
  assert.deepEqual(questions.map((q) => q.question.split('\n')[0]), ['q3?', 'q4?', 'q0?']);
  assert.deepEqual(orders(questions.map((q) => q.prompt)), [[2, 3, 1, 0], [2, 1, 3, 0], [1, 3, 0, 2]]);
  const seeded = gpqaQuestions(parseGpqaCsv(CSV, 'gpqa.csv'), { numQuestions: null, numShots: 0, seed: 7 });
  assert.deepEqual(orders(seeded.slice(0, 3).map((q) => q.prompt)), [[2, 0, 1, 3], [0, 2, 3, 1], [0, 2, 3, 1]]);
});

test("the prompt is simple-evals' multiple-choice query", () => {
  const [first] = gpqaQuestions(parseGpqaCsv(CSV, 'gpqa.csv'), { numQuestions: null, numShots: 0, seed: 0 });
  assert.equal(
    first!.prompt,
    "Answer the following multiple choice question. The last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) where LETTER is one of ABCD. Think step by step before answering.\n\n" +
      'q0?\n\nA) wrong 0c\nB) wrong 0a\nC) right 0\nD) wrong 0b',
  );
  assert.equal(first!.question, 'q0?\n\nA) wrong 0c\nB) wrong 0a\nC) right 0\nD) wrong 0b');
});

test("the answer is the letter after the reply's first 'Answer:'", () => {
  assert.equal(answerLineLetter('Reasoning...\nAnswer: C'), 'C');
  assert.equal(answerLineLetter('ANSWER:$B$'), 'B');
  assert.equal(answerLineLetter('Answer: A then Answer: D'), 'A');
  assert.equal(answerLineLetter('answer: b'), 'b');
  assert.equal(answerLineLetter('The answer is C'), null);
  assert.equal(answerLineLetter('Answer: E'), null);
});

test('a file without the columns, or a short row, is one error saying what was expected', () => {
  assert.throws(() => parseGpqaCsv('Question,Answer\nq,a', 'g.csv'), (e: unknown) => e instanceof UserError && /^g\.csv: expected CSV with a header naming the columns Question, Correct Answer/.test(e.message) && /no column 'Correct Answer', 'Incorrect Answer 1'/.test(e.message));
  assert.throws(() => parseGpqaCsv(`${HEADER}\nr,q,a,b`, 'g.csv'), (e: unknown) => e instanceof UserError && /^g\.csv:2: expected 7 columns/.test(e.message));
  assert.throws(() => parseGpqaCsv('', 'g.csv'), /the file is empty/);
  assert.throws(() => parseGpqaCsv(HEADER, 'g.csv'), /only the header/);
});

test('examples are refused: GPQA is asked zero-shot', () => {
  assert.throws(() => gpqaQuestions(parseGpqaCsv(CSV, 'g.csv'), { numQuestions: null, numShots: 5, seed: 0 }), UsageError);
});

test('without a domain column there are no subjects', () => {
  const csv = 'Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3\nq,a,b,c,d';
  assert.deepEqual(gpqaQuestions(parseGpqaCsv(csv, 'g.csv'), { numQuestions: null, numShots: 0, seed: 0 }).map((q) => q.subject), [null]);
});
