/**
 * What eval prints: SGLang's four result lines (`Accuracy`, `Invalid`, `Latency`, `Output
 * throughput`, three decimals as Python's `:.3f`), the per-subject table, and the notices for
 * failed requests and for synthetic answers. Pure.
 */
import { formatTextTable } from '../catalog/index.js';
import { formatFixed } from '../core/pyformat.js';
import type { RequestOutput } from '../bench/index.js';
import { accuracyOf, invalidRateOf } from './scoring.js';
import type { EvalScore } from './types.js';

export interface EvalSummary {
  score: EvalScore;
  /** Seconds from the first question sent to the last answer. */
  latency: number;
  /** Output tokens of all replies, as the server counted them. */
  outputTokens: number;
  /** The server is servebench's sim: its replies are synthetic text, so nothing they say can be scored. */
  synthetic: boolean;
}

/** Output tokens per second of the whole batch, as SGLang divides them (0 for an instant batch). */
export function outputThroughput(summary: Pick<EvalSummary, 'latency' | 'outputTokens'>): number {
  return summary.latency > 0 ? summary.outputTokens / summary.latency : 0;
}

/** Printed in place of a score against the sim, so nothing on screen looks like one. */
export const SYNTHETIC_ANSWERS = 'meaningless: servebench sim answers with synthetic text, not a model';

/** SGLang's result lines; against the sim the two accuracy lines say why there is no figure. */
export function formatResultLines(summary: EvalSummary): string[] {
  const { overall } = summary.score;
  return [
    `Accuracy: ${summary.synthetic ? SYNTHETIC_ANSWERS : formatFixed(accuracyOf(overall), 3)}`,
    `Invalid: ${summary.synthetic ? 'meaningless (synthetic answers)' : formatFixed(invalidRateOf(overall), 3)}`,
    `Latency: ${formatFixed(summary.latency, 3)} s`,
    `Output throughput: ${formatFixed(outputThroughput(summary), 3)} token/s`,
  ];
}

/** The per-subject table (with an `all` row), or null when the task has no subjects or the answers are synthetic. */
export function formatSubjectTable(summary: EvalSummary): string | null {
  const { score } = summary;
  if (score.subjects.length === 0 || summary.synthetic) return null;
  const rows = [...score.subjects, { subject: 'all', ...score.overall }].map((tally) => [
    tally.subject,
    String(tally.questions),
    String(tally.correct),
    String(tally.invalid),
    formatFixed(accuracyOf(tally), 3),
  ]);
  return formatTextTable(['SUBJECT', 'QUESTIONS', 'CORRECT', 'INVALID', 'ACCURACY'], rows, new Set([1, 2, 3, 4]));
}

/** `3 of 200 requests failed (http_5xx 2, timeout 1); their answers count as invalid`, or null when none failed. */
export function formatFailureNotice(outputs: readonly RequestOutput[]): string | null {
  const causes = new Map<string, number>();
  for (const output of outputs) {
    if (!output.success) causes.set(output.failureCause ?? 'other', (causes.get(output.failureCause ?? 'other') ?? 0) + 1);
  }
  if (causes.size === 0) return null;
  const failed = [...causes.values()].reduce((sum, n) => sum + n, 0);
  const byCause = [...causes.entries()].map(([cause, n]) => `${cause} ${n}`).join(', ');
  return `${failed} of ${outputs.length} requests failed (${byCause}); their answers count as invalid`;
}
