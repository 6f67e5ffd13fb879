/** A finished run's replies → graded answers and the summary the result lines, the answers file and the catalog share. Pure. */
import type { RequestOutput } from '../bench/index.js';
import type { EvalSummary } from './report.js';
import { scoreAnswers } from './scoring.js';
import { gradeReply, type EvalTask } from './tasks.js';
import type { EvalQuestion, GradedAnswer } from './types.js';

export interface EvalResults {
  /** One per question, in question order. */
  graded: GradedAnswer[];
  summary: EvalSummary;
}

/**
 * Grades `outputs[i]` as the answer to `questions[i]` (a failed request's empty reply is invalid)
 * and counts the output tokens of the replies; `synthetic` marks the sim's answers.
 */
export function gradeRun(task: EvalTask, questions: readonly EvalQuestion[], outputs: readonly RequestOutput[], latency: number, synthetic: boolean): EvalResults {
  const graded = questions.map((question, i) => gradeReply(task, question, outputs[i]!.generatedText));
  return {
    graded,
    summary: {
      score: scoreAnswers(graded, questions.map((question) => question.subject)),
      latency,
      outputTokens: outputs.reduce((sum, output) => sum + (output.success ? output.outputLen : 0), 0),
      synthetic,
    },
  };
}
