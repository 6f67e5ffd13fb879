/**
 * Size limits of a run's warnings. Warnings can quote what a file holds (line numbers, values,
 * argument text), and a run's page lists every warning it has: without a cap, one file with a
 * million bad lines made a 22 MB warning and a 22 MB page.
 */

/** Longest warning; a longer one is cut to this length, ending with how much was left out. */
export const MAX_WARNING_CHARS = 400;
/** Room kept for the `… (N more characters)` ending, so a cut warning is not cut again when capped twice. */
const CUT_NOTE_CHARS = 40;
/** Most warnings a run keeps; the last kept line says how many more there were. */
export const MAX_WARNINGS = 20;

function capWarning(warning: string): string {
  if (warning.length <= MAX_WARNING_CHARS) return warning;
  const keep = MAX_WARNING_CHARS - CUT_NOTE_CHARS;
  // Never end on half of a surrogate pair: the cut text must stay valid UTF-16.
  const end = /[\ud800-\udbff]/.test(warning[keep - 1]!) ? keep - 1 : keep;
  return `${warning.slice(0, end)}… (${warning.length - end} more characters)`;
}

/** The warnings with each one's length and their number capped (8,000 characters in all); capping twice changes nothing. */
export function capWarnings(warnings: readonly string[]): string[] {
  const kept = warnings.slice(0, MAX_WARNINGS).map(capWarning);
  if (warnings.length > MAX_WARNINGS) kept[MAX_WARNINGS - 1] = `${warnings.length - MAX_WARNINGS + 1} more warnings not kept`;
  return kept;
}
