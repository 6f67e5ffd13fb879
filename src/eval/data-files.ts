/**
 * Reads a task's local data (`--data-path`) and turns it into questions. Nothing is downloaded:
 * a missing or malformed file is one line saying what was expected there.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import { gpqaQuestions, parseGpqaCsv } from './gpqa.js';
import { gsm8kQuestions, parseGsm8k } from './gsm8k.js';
import { mmluQuestions, parseMmluCsv, type MmluSubject } from './mmlu.js';
import type { EvalQuestion, EvalTaskName } from './types.js';

/** What `--data-path` must be, per task, for the messages. */
export const DATA_EXPECTED: Record<EvalTaskName, string> = {
  gsm8k: 'a GSM8K JSONL file (one {"question", "answer"} object per line, answers ending in "#### N"), e.g. test.jsonl',
  mmlu: 'an MMLU data folder holding dev/<subject>_dev.csv and test/<subject>_test.csv (rows question,A,B,C,D,answer)',
  gpqa: 'a GPQA CSV file with the columns Question, Correct Answer, Incorrect Answer 1-3, e.g. gpqa_diamond.csv',
};

/** How many questions and examples to take, and the seed of GPQA's draws. */
export interface QuestionSelection {
  numShots: number;
  /** GSM8K: from the start of the file; MMLU: per subject; GPQA: drawn with `seed`. Null: all. */
  numQuestions: number | null;
  seed: number;
}

function readText(path: string, task: EvalTaskName): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : `cannot be read (${code ?? (error as Error).message})`;
    throw new UserError(`${path}: ${problem}; --data-path must be ${DATA_EXPECTED[task]}`);
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The subjects of an MMLU folder, sorted by name, each with its dev rows (only read when examples are wanted) and test rows. */
function readMmluFolder(root: string, numShots: number): MmluSubject[] {
  const testFolder = join(root, 'test');
  if (!isFolder(testFolder)) throw new UserError(`${root}: no test/ folder; --data-path must be ${DATA_EXPECTED.mmlu}`);
  const names = readdirSync(testFolder)
    .filter((file) => file.endsWith('_test.csv'))
    .map((file) => file.slice(0, -'_test.csv'.length))
    .sort();
  if (names.length === 0) throw new UserError(`${testFolder}: no <subject>_test.csv files; --data-path must be ${DATA_EXPECTED.mmlu}`);
  return names.map((name) => {
    const testFile = join(testFolder, `${name}_test.csv`);
    const devFile = join(root, 'dev', `${name}_dev.csv`);
    return {
      name,
      test: parseMmluCsv(readText(testFile, 'mmlu'), testFile),
      dev: numShots > 0 ? parseMmluCsv(readText(devFile, 'mmlu'), devFile) : [],
    };
  });
}

/** The questions of `task` from the data at `path`. */
export function loadQuestions(task: EvalTaskName, path: string, selection: QuestionSelection): EvalQuestion[] {
  switch (task) {
    case 'gsm8k':
      return gsm8kQuestions(parseGsm8k(readText(path, task), path), {
        numShots: selection.numShots,
        numQuestions: selection.numQuestions ?? Infinity,
      });
    case 'mmlu':
      if (!isFolder(path)) throw new UserError(`${path}: ${notAFolderReason(path)}; --data-path must be ${DATA_EXPECTED.mmlu}`);
      return mmluQuestions(readMmluFolder(path, selection.numShots), {
        numShots: selection.numShots,
        numQuestionsPerSubject: selection.numQuestions,
      });
    case 'gpqa':
      return gpqaQuestions(parseGpqaCsv(readText(path, task), path), selection);
  }
}

/** Why a path that should be a folder is not one. */
function notAFolderReason(path: string): string {
  try {
    statSync(path);
    return 'a file, not a folder';
  } catch {
    return 'no such folder';
  }
}
