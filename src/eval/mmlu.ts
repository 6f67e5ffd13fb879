/**
 * Few-shot MMLU as SGLang's `benchmark/mmlu/bench_sglang.py` (and lm-evaluation-harness's default
 * MMLU template) build it: per subject the line `The following are multiple choice questions
 * (with answers) about <subject words>.` and a blank line, then the first k dev-split questions
 * each as `<question>\nA. ..\nB. ..\nC. ..\nD. ..\nAnswer: X` and a blank line, then the test
 * question ending in `Answer:`. One token is generated; its first non-blank character is the
 * answer. Pure. Where the two references differ: docs/EVAL.md.
 */
import { UsageError, UserError } from '../core/errors.js';
import { CsvSyntaxError, parseCsv } from './csv.js';
import type { EvalQuestion, TaskSettings } from './types.js';

export const CHOICE_LETTERS = ['A', 'B', 'C', 'D'] as const;
export type ChoiceLetter = (typeof CHOICE_LETTERS)[number];

/** One row of an MMLU subject CSV: `question,A,B,C,D,answer` (no header). */
export interface MmluItem {
  question: string;
  choices: [string, string, string, string];
  answer: ChoiceLetter;
}

/** The dev (examples) and test (questions) rows of one subject. */
export interface MmluSubject {
  name: string;
  dev: MmluItem[];
  test: MmluItem[];
}

export const MMLU_SETTINGS: TaskSettings = {
  stop: [],
  defaultMaxNewTokens: 1,
  defaultNumShots: 5,
  defaultNumQuestions: null,
};

const EXPECTED_ROW = '6 columns question,A,B,C,D,answer with the answer one of A, B, C, D';

export function isChoiceLetter(text: string): text is ChoiceLetter {
  return (CHOICE_LETTERS as readonly string[]).includes(text);
}

/** The rows of one subject's CSV; `source` names the file in the one-line error a bad row gets. */
export function parseMmluCsv(text: string, source: string): MmluItem[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw new UserError(`${source}:${error.line}: expected CSV rows of ${EXPECTED_ROW}; ${error.message}`);
  }
  return records.map(({ fields, line }) => {
    const answer = fields[5]?.trim() ?? '';
    if (fields.length !== 6 || !isChoiceLetter(answer)) {
      const got = fields.length !== 6 ? `${fields.length} columns` : `answer '${answer.slice(0, 20)}'`;
      throw new UserError(`${source}:${line}: expected ${EXPECTED_ROW}, got ${got}`);
    }
    return { question: fields[0]!, choices: [fields[1]!, fields[2]!, fields[3]!, fields[4]!], answer };
  });
}

/** `high_school_biology` → `high school biology`. */
export function subjectWords(subject: string): string {
  return subject.split('_').join(' ');
}

/** One question with its four choices, ending in `Answer:`; a few-shot example adds ` X` and a blank line. */
export function mmluExample(item: MmluItem, includeAnswer: boolean): string {
  const choices = item.choices.map((choice, i) => `\n${CHOICE_LETTERS[i]}. ${choice}`).join('');
  const asked = `${item.question}${choices}\nAnswer:`;
  return includeAnswer ? `${asked} ${item.answer}\n\n` : asked;
}

/** The subject line and the few-shot examples that precede every question of a subject. */
export function mmluPromptPrefix(subject: string, shots: readonly MmluItem[]): string {
  const header = `The following are multiple choice questions (with answers) about ${subjectWords(subject)}.\n\n`;
  return header + shots.map((shot) => mmluExample(shot, true)).join('');
}

/**
 * SGLang's reading of the one generated token: the first character of the reply once blanks are
 * trimmed; anything but a choice letter is invalid (null).
 */
export function firstChoiceLetter(reply: string): ChoiceLetter | null {
  const first = reply.trim().charAt(0);
  return isChoiceLetter(first) ? first : null;
}

export interface MmluSelection {
  numShots: number;
  /** Questions per subject from the start of its test split; null asks them all. */
  numQuestionsPerSubject: number | null;
}

/** The questions of a run, subject by subject in the order given (sorted by name, as SGLang's). */
export function mmluQuestions(subjects: readonly MmluSubject[], selection: MmluSelection): EvalQuestion[] {
  return subjects.flatMap((subject) => {
    if (selection.numShots > subject.dev.length) {
      throw new UsageError(`--num-shots ${selection.numShots} needs that many dev questions; subject '${subject.name}' has ${subject.dev.length}`);
    }
    const prefix = mmluPromptPrefix(subject.name, subject.dev.slice(0, selection.numShots));
    const asked = selection.numQuestionsPerSubject === null ? subject.test : subject.test.slice(0, selection.numQuestionsPerSubject);
    return asked.map((item) => {
      const question = mmluExample(item, false);
      return { subject: subject.name, question, prompt: prefix + question, reference: item.answer };
    });
  });
}
