/** Accuracy and invalid rate, overall and per subject, from graded answers. Pure. */
import type { EvalScore, GradedAnswer, Tally } from './types.js';

/** Questions without a subject in a task whose other questions have one (a GPQA row with no domain). */
export const NO_SUBJECT = '(none)';

function emptyTally(): Tally {
  return { questions: 0, correct: 0, invalid: 0 };
}

function count(tally: Tally, answer: GradedAnswer): void {
  tally.questions++;
  if (answer.correct) tally.correct++;
  if (answer.extracted === null) tally.invalid++;
}

/** Tallies `answers[i]` under `subjects[i]`; subjects come back sorted by name, none when no question has one. */
export function scoreAnswers(answers: readonly GradedAnswer[], subjects: readonly (string | null)[]): EvalScore {
  const overall = emptyTally();
  const bySubject = new Map<string, Tally>();
  const hasSubjects = subjects.some((subject) => subject !== null);
  answers.forEach((answer, i) => {
    count(overall, answer);
    if (!hasSubjects) return;
    const subject = subjects[i] ?? NO_SUBJECT;
    let tally = bySubject.get(subject);
    if (tally === undefined) bySubject.set(subject, (tally = emptyTally()));
    count(tally, answer);
  });
  const sorted = [...bySubject.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { overall, subjects: sorted.map(([subject, tally]) => ({ subject, ...tally })) };
}

/** Correct answers over questions (0 for no questions). */
export function accuracyOf(tally: Tally): number {
  return tally.questions === 0 ? 0 : tally.correct / tally.questions;
}

/** Invalid answers over questions (0 for no questions). */
export function invalidRateOf(tally: Tally): number {
  return tally.questions === 0 ? 0 : tally.invalid / tally.questions;
}
