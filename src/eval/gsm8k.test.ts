import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError, UserError } from '../core/errors.js';
import { gsm8kQuestions, lastInteger, parseGsm8k } from './gsm8k.js';

const FIXTURE = [
  { question: 'Ann has 2 pens and buys 3 more. How many pens does she have?', answer: 'She has 2 + 3 = <<2+3=5>>5 pens.\n#### 5' },
  { question: 'A crate holds 12 eggs. How many eggs are in 4 crates?', answer: '12 * 4 = <<12*4=48>>48 eggs.\n#### 48' },
  { question: 'What is 1,200 plus 34?', answer: '1,200 + 34 = 1,234\n#### 1,234' },
]
  .map((record) => JSON.stringify(record))
  .join('\n');

test("the prompt is SGLang's few_shot_gsm8k text: k examples 'Question: ...\\nAnswer: ...' each followed by a blank line, then the question", () => {
  const questions = gsm8kQuestions(parseGsm8k(FIXTURE, 'test.jsonl'), { numShots: 2, numQuestions: 3 });
  assert.equal(
    questions[2]!.prompt,
    'Question: Ann has 2 pens and buys 3 more. How many pens does she have?\n' +
      'Answer: She has 2 + 3 = <<2+3=5>>5 pens.\n#### 5\n\n' +
      'Question: A crate holds 12 eggs. How many eggs are in 4 crates?\n' +
      'Answer: 12 * 4 = <<12*4=48>>48 eggs.\n#### 48\n\n' +
      'Question: What is 1,200 plus 34?\nAnswer:',
  );
  // As in SGLang, the examples are the file's first records, and those are asked too.
  assert.equal(questions[0]!.prompt.split('Question: Ann').length, 3);
  assert.deepEqual(
    questions.map((q) => [q.reference, q.subject, q.question]),
    [
      ['5', null, 'Question: Ann has 2 pens and buys 3 more. How many pens does she have?\nAnswer:'],
      ['48', null, 'Question: A crate holds 12 eggs. How many eggs are in 4 crates?\nAnswer:'],
      ['1234', null, 'Question: What is 1,200 plus 34?\nAnswer:'],
    ],
  );
});

test('zero shots asks the bare question; --num-questions takes the first N', () => {
  const questions = gsm8kQuestions(parseGsm8k(FIXTURE, 'test.jsonl'), { numShots: 0, numQuestions: 1 });
  assert.deepEqual(questions.map((q) => q.prompt), ['Question: Ann has 2 pens and buys 3 more. How many pens does she have?\nAnswer:']);
});

test("the answer is the reply's last integer as SGLang reads it", () => {
  assert.equal(lastInteger('2 + 3 = 5, so the answer is 5.'), '5');
  assert.equal(lastInteger('The total is 1,234 dollars'), '1234');
  assert.equal(lastInteger('It is -7'), '7');
  assert.equal(lastInteger('about 3.75'), '75');
  assert.equal(lastInteger('0 or 00'), '0');
  // Python's literal_eval refuses a leading zero: SGLang counts the answer as invalid.
  assert.equal(lastInteger('agent 007'), null);
  assert.equal(lastInteger('I do not know.'), null);
  assert.equal(lastInteger(''), null);
  // Digits of another script match \d in Python but are no integer literal.
  assert.equal(lastInteger('5 then ٣'), null);
});

test('a malformed line is one error naming the file, the line and what was expected', () => {
  const expectation = /expected a JSON object with string "question" and "answer", the answer ending in "#### N"/;
  assert.throws(() => parseGsm8k('{"question": "q", "answer": "#### 1"}\nnot json', 'data.jsonl'), (e: unknown) => e instanceof UserError && /^data\.jsonl:2: /.test(e.message) && expectation.test(e.message));
  assert.throws(() => parseGsm8k('{"question": "q", "answer": "no final number"}', 'data.jsonl'), (e: unknown) => e instanceof UserError && /^data\.jsonl:1: /.test(e.message) && expectation.test(e.message));
  assert.throws(() => parseGsm8k('{"question": 3, "answer": "#### 1"}', 'data.jsonl'), UserError);
  assert.throws(() => parseGsm8k('\n\n', 'empty.jsonl'), /empty\.jsonl: expected GSM8K JSONL .* no records/);
});

test('more examples than records is a usage error', () => {
  assert.throws(() => gsm8kQuestions(parseGsm8k(FIXTURE, 'f'), { numShots: 4, numQuestions: 1 }), (e: unknown) => e instanceof UsageError && /--num-shots 4 .* has 3/.test(e.message));
});
