/** Writes the answers file (one JSON line per question); a failed write is one line naming the file. */
import { writeFileSync } from 'node:fs';
import { UserError } from '../core/errors.js';
import { answersJsonl, type AnswerRecord } from './answer-records.js';
import type { EvalTaskName } from './types.js';

/** `eval-gsm8k-20260131-120501.jsonl`: the task and the local start time, so runs never share a file. */
export function defaultAnswersFileName(task: EvalTaskName, startedAt: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const day = `${startedAt.getFullYear()}${two(startedAt.getMonth() + 1)}${two(startedAt.getDate())}`;
  const time = `${two(startedAt.getHours())}${two(startedAt.getMinutes())}${two(startedAt.getSeconds())}`;
  return `eval-${task}-${day}-${time}.jsonl`;
}

/** Replaces `path` with the records: one run per file, so its lines are exactly that run's questions. */
export function writeAnswersFile(path: string, records: readonly AnswerRecord[]): void {
  try {
    writeFileSync(path, answersJsonl(records), 'utf8');
  } catch (error) {
    throw new UserError(`cannot write the answers to ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass a writable --output-file`);
  }
}
