/**
 * The `servebench repeated runs` section printed after the last of `--num-runs` runs: each
 * headline figure's mean over the runs with the half-width of its confidence interval and its
 * coefficient of variation, one `{:<40} {:<10}` line each, then notes naming the figures the runs
 * disagree on.
 */
import { formatConfidenceLevel } from '../../core/confidence.js';
import { formatFixed } from '../../core/pyformat.js';
import { NOISY_CV, type FigureSummary, type RepeatedRunsSummary } from '../metrics/repeated-runs.js';
import { BLOCK_WIDTH, sectionHeader, textLine } from './block.js';

/** A percentage with one decimal: 0.0123 → `1.2%`. */
function percent(fraction: number): string {
  return `${formatFixed(fraction * 100, 1)}%`;
}

/** `1.75 ± 0.04 (95% CI, 3 runs), CV 1.0%`. */
export function figureSummaryText(summary: FigureSummary, level: number): string {
  const interval = summary.halfWidth === null ? '' : ` ± ${formatFixed(summary.halfWidth, 2)}`;
  const cv = summary.cv === null ? 'n/a' : percent(summary.cv);
  return `${formatFixed(summary.mean, 2)}${interval} (${formatConfidenceLevel(level)} CI, ${summary.count} runs), CV ${cv}`;
}

/** The section, ending with the closing rule and a newline. */
export function formatRepeatedBlock(summary: RepeatedRunsSummary): string {
  const lines = [
    sectionHeader('servebench repeated runs', '-'),
    ...summary.figures.map((figure) => textLine(figure.figure.label, figureSummaryText(figure, summary.level))),
    '='.repeat(BLOCK_WIDTH),
  ];
  return lines.join('\n') + '\n';
}

/** One note per headline figure the runs disagree on by more than 5%; none when they agree. */
export function repeatedRunsNotes(summary: RepeatedRunsSummary): string[] {
  return summary.noisy.map(
    (noisy) =>
      `note: the runs disagree on ${noisy.figure.label.replace(/:$/, '')}: CV ${percent(noisy.cv!)} (above ${percent(NOISY_CV)}), so its interval is wide; ` +
      'look for other load on the server or this machine, or let the server settle between runs (--cooldown)',
  );
}
