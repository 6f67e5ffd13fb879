/**
 * The contracts of `servebench eval`: task data → questions (prompt + reference answer) → the
 * server's replies → graded answers → accuracy overall and per subject.
 */

export const EVAL_TASKS = ['gsm8k', 'mmlu', 'gpqa'] as const;
export type EvalTaskName = (typeof EVAL_TASKS)[number];

/** One question as sent: the whole prompt (few-shot examples included) and the answer it must get. */
export interface EvalQuestion {
  /** MMLU subject or GPQA domain; null where the task has none (GSM8K). */
  subject: string | null;
  /** The prompt's own part, after the examples or instructions every question shares (its choices included): what the answers file shows. */
  question: string;
  /** The full text sent to the model. */
  prompt: string;
  /** The reference answer in the form extraction produces: a number for GSM8K, a letter A-D otherwise. */
  reference: string;
}

/** One question's outcome. */
export interface GradedAnswer {
  /** What extraction found in the reply: null when it found nothing (an invalid answer). */
  extracted: string | null;
  correct: boolean;
}

/** Counts of one group of questions (a subject, or all). */
export interface Tally {
  questions: number;
  correct: number;
  /** Answers extraction could not read (failed requests included). */
  invalid: number;
}

/** Accuracy of a run: overall and, where the task has subjects, per subject in sorted order. */
export interface EvalScore {
  overall: Tally;
  subjects: Array<{ subject: string } & Tally>;
}

/** What a task fixes about its requests, and its defaults where the user gives none. */
export interface TaskSettings {
  /** Stop strings sent with every request (SGLang's for the task). */
  stop: string[];
  defaultMaxNewTokens: number;
  defaultNumShots: number;
  /** Questions asked by default; null = every question in the data. */
  defaultNumQuestions: number | null;
}
