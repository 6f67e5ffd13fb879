/**
 * GPQA as SGLang's `simple_eval_gpqa` (from OpenAI's simple-evals) asks it: zero-shot, the four
 * answers in an order drawn per question from one seeded Python `random.Random`, the question in
 * the multiple-choice instruction that asks for a last line `Answer: X`, and the first such line
 * of the reply read as the answer. Pure.
 */
import { UsageError, UserError } from '../core/errors.js';
import { PythonRandom } from '../core/rng.js';
import { CsvSyntaxError, parseCsv } from './csv.js';
import { CHOICE_LETTERS } from './mmlu.js';
import type { EvalQuestion, TaskSettings } from './types.js';

/** One GPQA row: the question, its correct answer, three wrong ones, and its high-level domain when the file has that column. */
export interface GpqaItem {
  question: string;
  correct: string;
  incorrect: [string, string, string];
  domain: string | null;
}

export const GPQA_SETTINGS: TaskSettings = {
  stop: [],
  defaultMaxNewTokens: 2048,
  defaultNumShots: 0,
  defaultNumQuestions: null,
};

const REQUIRED_COLUMNS = ['Question', 'Correct Answer', 'Incorrect Answer 1', 'Incorrect Answer 2', 'Incorrect Answer 3'] as const;
/** Optional: when present, accuracy is also reported per domain (Physics, Chemistry, Biology). */
const DOMAIN_COLUMN = 'High-level domain';

/** The rows of a GPQA CSV (header row first); `source` names the file in the one-line error. */
export function parseGpqaCsv(text: string, source: string): GpqaItem[] {
  const expected = `CSV with a header naming the columns ${REQUIRED_COLUMNS.join(', ')}`;
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw new UserError(`${source}:${error.line}: expected ${expected}; ${error.message}`);
  }
  const [header, ...rows] = records;
  const column = new Map(header?.fields.map((name, i) => [name.trim(), i]));
  const missing = REQUIRED_COLUMNS.filter((name) => !column.has(name));
  if (header === undefined || missing.length > 0) {
    throw new UserError(`${source}: expected ${expected}; ${header === undefined ? 'the file is empty' : `no column ${missing.map((m) => `'${m}'`).join(', ')}`}`);
  }
  if (rows.length === 0) throw new UserError(`${source}: expected ${expected} and at least one question; the file has only the header`);
  const at = (fields: string[], name: string): string => fields[column.get(name)!] ?? '';
  const domainAt = column.get(DOMAIN_COLUMN);
  return rows.map(({ fields, line }) => {
    if (fields.length !== header.fields.length) {
      throw new UserError(`${source}:${line}: expected ${header.fields.length} columns as the header names, got ${fields.length}`);
    }
    return {
      question: at(fields, 'Question'),
      correct: at(fields, 'Correct Answer'),
      incorrect: [at(fields, 'Incorrect Answer 1'), at(fields, 'Incorrect Answer 2'), at(fields, 'Incorrect Answer 3')],
      domain: domainAt === undefined ? null : fields[domainAt]!.trim() || null,
    };
  });
}

/** simple-evals' multiple-choice instruction: the model is asked to reason, then end with `Answer: X`. */
const INSTRUCTION =
  "Answer the following multiple choice question. The last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) where LETTER is one of ABCD. Think step by step before answering.";

/** The question and its choices as `A) ...` lines, the part of the prompt after the instruction. */
export function gpqaQuestionText(question: string, choices: readonly string[]): string {
  return `${question}\n\n${choices.map((choice, i) => `${CHOICE_LETTERS[i]}) ${choice}`).join('\n')}`;
}

/**
 * The letter after the first `Answer:` of the reply (case-insensitive, `$` around it allowed), as
 * simple-evals matches it; null when the reply has none. A lower-case letter is returned as
 * written and so does not equal the reference, as there.
 */
export function answerLineLetter(reply: string): string | null {
  return /Answer[ \t]*:[ \t]*\$?([A-D])\$?/i.exec(reply)?.[1] ?? null;
}

export interface GpqaSelection {
  /** Questions drawn at random (seeded) from the file; null asks every question in file order. */
  numQuestions: number | null;
  numShots: number;
  seed: number;
}

/**
 * The questions of a run. One `random.Random(seed)` first draws the questions (when not all are
 * asked), then per question an order of its four answers (`sample(range(4), 4)`), so seed 0 gives
 * SGLang's orders.
 */
export function gpqaQuestions(items: readonly GpqaItem[], selection: GpqaSelection): EvalQuestion[] {
  if (selection.numShots !== 0) {
    throw new UsageError(`gpqa is asked zero-shot (SGLang's simple_eval_gpqa gives instructions, no examples); drop --num-shots ${selection.numShots}`);
  }
  const rng = new PythonRandom(selection.seed);
  const asked = selection.numQuestions === null ? items : rng.sample(items, Math.min(selection.numQuestions, items.length));
  return asked.map((item) => {
    const original = [item.correct, ...item.incorrect];
    const choices = rng.sample([0, 1, 2, 3], 4).map((i) => original[i]!);
    const question = gpqaQuestionText(item.question, choices);
    return {
      subject: item.domain,
      question,
      prompt: `${INSTRUCTION}\n\n${question}`,
      reference: CHOICE_LETTERS[choices.indexOf(item.correct)]!,
    };
  });
}
