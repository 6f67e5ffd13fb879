import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError, UserError } from '../core/errors.js';
import { firstChoiceLetter, mmluQuestions, parseMmluCsv, type MmluSubject } from './mmlu.js';

const DEV_CSV = 'Find the order of the group Z_4.,1,2,4,8,C\n"Is Z_3 cyclic?",Yes,No,"Only under addition, ""mod 3""",Never,A\n';
const TEST_CSV = 'How many elements does S_3 have?,3,6,9,12,B\nWhich group is abelian?,S_3,Z_5,A_4,D_4,B\n';

function subject(): MmluSubject {
  return { name: 'abstract_algebra', dev: parseMmluCsv(DEV_CSV, 'dev.csv'), test: parseMmluCsv(TEST_CSV, 'test.csv') };
}

test("the prompt is SGLang's (and lm-eval's) MMLU text: subject line, k dev examples with their answers, the question ending in 'Answer:'", () => {
  const [first] = mmluQuestions([subject()], { numShots: 2, numQuestionsPerSubject: null });
  assert.equal(
    first!.prompt,
    'The following are multiple choice questions (with answers) about abstract algebra.\n\n' +
      'Find the order of the group Z_4.\nA. 1\nB. 2\nC. 4\nD. 8\nAnswer: C\n\n' +
      'Is Z_3 cyclic?\nA. Yes\nB. No\nC. Only under addition, "mod 3"\nD. Never\nAnswer: A\n\n' +
      'How many elements does S_3 have?\nA. 3\nB. 6\nC. 9\nD. 12\nAnswer:',
  );
  assert.equal(first!.reference, 'B');
  assert.equal(first!.question, 'How many elements does S_3 have?\nA. 3\nB. 6\nC. 9\nD. 12\nAnswer:');
  assert.equal(first!.subject, 'abstract_algebra');
});

test('--num-questions takes the first N of each subject; zero shots leaves the subject line alone', () => {
  const other: MmluSubject = { ...subject(), name: 'college_biology' };
  const questions = mmluQuestions([subject(), other], { numShots: 0, numQuestionsPerSubject: 1 });
  assert.deepEqual(questions.map((q) => q.subject), ['abstract_algebra', 'college_biology']);
  assert.equal(
    questions[1]!.prompt,
    'The following are multiple choice questions (with answers) about college biology.\n\nHow many elements does S_3 have?\nA. 3\nB. 6\nC. 9\nD. 12\nAnswer:',
  );
});

test("the answer is the reply's first non-blank character when it is a choice letter", () => {
  assert.equal(firstChoiceLetter(' B'), 'B');
  assert.equal(firstChoiceLetter('\nD. 12'), 'D');
  assert.equal(firstChoiceLetter('b'), null);
  assert.equal(firstChoiceLetter('The answer is B'), null);
  assert.equal(firstChoiceLetter('   '), null);
});

test('a malformed row is one error naming the file, its line and the expected columns', () => {
  const expected = /expected 6 columns question,A,B,C,D,answer with the answer one of A, B, C, D/;
  assert.throws(() => parseMmluCsv('q,1,2,3,4,A\nq,1,2,3,E\n', 'x_test.csv'), (e: unknown) => e instanceof UserError && /^x_test\.csv:2: /.test(e.message) && expected.test(e.message) && /got 5 columns/.test(e.message));
  assert.throws(() => parseMmluCsv('q,1,2,3,4,E\n', 'x_test.csv'), (e: unknown) => e instanceof UserError && /got answer 'E'/.test(e.message));
  assert.throws(() => parseMmluCsv('"q,1,2,3,4,A\n', 'x_test.csv'), (e: unknown) => e instanceof UserError && /^x_test\.csv:1: .*never closed/.test(e.message));
});

test('more examples than dev questions is a usage error naming the subject', () => {
  assert.throws(() => mmluQuestions([subject()], { numShots: 3, numQuestionsPerSubject: null }), (e: unknown) => e instanceof UsageError && /abstract_algebra/.test(e.message));
});
