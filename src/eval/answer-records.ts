/** The answers file's lines: one JSON object per question, what was asked, replied and read from the reply. Pure. */
import type { RequestOutput } from '../bench/index.js';
import type { EvalQuestion, GradedAnswer } from './types.js';

export interface AnswerRecord {
  index: number;
  subject: string | null;
  question: string;
  reference: string;
  /** The model's reply ('' for a failed request). */
  reply: string;
  extracted: string | null;
  /** Null against the sim: a synthetic reply is neither right nor wrong. */
  correct: boolean | null;
  output_tokens: number;
  latency: number | null;
  ttft: number | null;
  /** Why the request failed; '' for a reply. */
  error: string;
}

/** The record of question `index`. */
export function answerRecord(index: number, question: EvalQuestion, output: RequestOutput, graded: GradedAnswer, synthetic: boolean): AnswerRecord {
  return {
    index,
    subject: question.subject,
    question: question.question,
    reference: question.reference,
    reply: output.generatedText,
    extracted: graded.extracted,
    correct: synthetic ? null : graded.correct,
    output_tokens: output.outputLen,
    latency: output.success ? output.latency : null,
    ttft: output.success ? output.ttft : null,
    error: output.error,
  };
}

/** The file's text: one line per record. */
export function answersJsonl(records: readonly AnswerRecord[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}
