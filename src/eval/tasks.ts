/** Per task: its request settings and how an answer is read from a reply. Pure. */
import { GPQA_SETTINGS, answerLineLetter } from './gpqa.js';
import { GSM8K_SETTINGS, lastInteger } from './gsm8k.js';
import { MMLU_SETTINGS, firstChoiceLetter } from './mmlu.js';
import type { EvalQuestion, EvalTaskName, GradedAnswer, TaskSettings } from './types.js';

export interface EvalTask extends TaskSettings {
  name: EvalTaskName;
  /** The answer a reply gives, in the form of `EvalQuestion.reference`; null when it gives none. */
  extract(reply: string): string | null;
}

const TASKS: Record<EvalTaskName, EvalTask> = {
  gsm8k: { name: 'gsm8k', ...GSM8K_SETTINGS, extract: lastInteger },
  mmlu: { name: 'mmlu', ...MMLU_SETTINGS, extract: firstChoiceLetter },
  gpqa: { name: 'gpqa', ...GPQA_SETTINGS, extract: answerLineLetter },
};

export function evalTask(name: EvalTaskName): EvalTask {
  return TASKS[name];
}

/** Grades one reply against its question; a failed request's reply is '' and so invalid. */
export function gradeReply(task: EvalTask, question: EvalQuestion, reply: string): GradedAnswer {
  const extracted = task.extract(reply);
  return { extracted, correct: extracted !== null && extracted === question.reference };
}
