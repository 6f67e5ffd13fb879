/**
 * The configuration search's report: a ranking table of every candidate and, for the best few,
 * the launch commands to run them (with `--max-running-requests` set to the load they were
 * judged at); candidates the model's expected error cannot separate from the best are marked.
 */
import type { CrossValidationSummary } from '../sim/index.js';
import type { CandidateOutcome } from './config-search.js';
import type { InstancePlan } from './config-space.js';
import { formatErrorPercent } from '../predict/index.js';
import { renderLaunchCommands } from './launch-render.js';
import { formatRulelessTable, outputThroughput, type SweepPoint } from '../sweep/index.js';

function metric(point: SweepPoint | null, key: string): string {
  const value = point?.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(1) : '-';
}

/**
 * The ranked candidates after #1 whose output tok/s per card is within the model's expected
 * output-throughput error of #1's: each prediction is off by about that much, so a smaller gap
 * does not say which is better. Empty without a cross-validated error.
 */
export function indistinguishableFromBest(ranked: readonly CandidateOutcome[], expectedError: CrossValidationSummary | null): Set<CandidateOutcome> {
  const [best, ...rest] = ranked;
  if (expectedError === null || best === undefined || best.chosen === null) return new Set();
  const floor = best.perCard * (1 - expectedError.outputThroughput);
  return new Set(rest.filter((outcome) => outcome.chosen !== null && outcome.perCard >= floor));
}

/** Per candidate, `within the model's ±10% of #1` when its place in the ranking is not firm, else null. */
function closeToBestNotes(ranked: readonly CandidateOutcome[], expectedError: CrossValidationSummary | null): (outcome: CandidateOutcome) => string | null {
  const close = indistinguishableFromBest(ranked, expectedError);
  const note = expectedError && `within the model's ${formatErrorPercent(expectedError.outputThroughput)} of #1`;
  return (outcome) => (close.has(outcome) ? note : null);
}

/**
 * Ranking table of the candidates that were predicted (`ranked` best first); a trailing note says
 * that no load met the SLO, or that the model cannot separate it from #1. Skipped candidates are
 * listed apart ({@link formatSkipped}): they have no place in a ranking.
 */
export function formatRankingTable(ranked: readonly CandidateOutcome[], expectedError: CrossValidationSummary | null): string {
  const header = ['#', 'configuration', 'mode', 'concurrency', 'out tok/s', 'tok/s/card', 'mean TTFT ms', 'mean TPOT ms', 'runs', 'note'];
  const closeNote = closeToBestNotes(ranked, expectedError);
  const rows = ranked.filter((outcome) => outcome.skipped === null).map((outcome, index) => {
    const { chosen } = outcome;
    const note = chosen === null ? 'no load meets the SLO' : (closeNote(outcome) ?? '');
    return [
      String(index + 1),
      outcome.candidate.label,
      outcome.candidate.mode,
      chosen ? String(chosen.load) : '-',
      chosen ? outputThroughput(chosen).toFixed(1) : '-',
      chosen ? outcome.perCard.toFixed(1) : '-',
      metric(chosen, 'mean_ttft_ms'),
      metric(chosen, 'mean_tpot_ms'),
      String(outcome.runs),
      note,
    ];
  });
  const leftAligned = new Set([1, 2, 9]);
  const right = new Set([...header.keys()].filter((i) => !leftAligned.has(i)));
  return formatRulelessTable(header, rows, right);
}

/** The candidates the model says cannot run, each with its reason; nothing when none was skipped. */
export function formatSkipped(ranked: readonly CandidateOutcome[]): string[] {
  const skipped = ranked.filter((outcome) => outcome.skipped !== null);
  if (skipped.length === 0) return [];
  const count = skipped.length === 1 ? '1 configuration' : `${skipped.length} configurations`;
  return [`Skipped ${count} that cannot run here (not predicted, not ranked):`, ...skipped.map((outcome) => `  ${outcome.candidate.label}: ${outcome.skipped}`)];
}

export interface LaunchReportOptions {
  modelPath: string;
  devicesPerNode: number;
  top: number;
  /** The model's cross-validated error (null before its first fit): marks candidates it cannot separate from #1. */
  expectedError: CrossValidationSummary | null;
}

/** Data-parallel workers of one instance that each apply `--max-running-requests` (DP attention divides it instead). */
function cappedWorkers(instance: InstancePlan): number {
  const dp = instance.flags.indexOf('--dp');
  if (dp < 0 || instance.flags.includes('--enable-dp-attention')) return 1;
  return Number(instance.flags[dp + 1]);
}

/** Caps running requests at the load the candidate was judged at, shared over the decoding replicas and DP workers. */
function runningCap(outcome: CandidateOutcome): (instance: InstancePlan) => string[] {
  return (instance) => {
    if (outcome.chosen === null || instance.role === 'prefill') return [];
    const replicas = outcome.candidate.instances.filter((i) => i.role === instance.role).reduce((n, i) => n + i.replicas, 0);
    return ['--max-running-requests', String(Math.ceil(outcome.chosen.load / (replicas * cappedWorkers(instance))))];
  };
}

/** Launch commands of the best `top` evaluated candidates (`ranked` best first). */
export function formatTopLaunches(ranked: readonly CandidateOutcome[], options: LaunchReportOptions): string[] {
  const lines: string[] = [];
  const closeNote = closeToBestNotes(ranked, options.expectedError);
  const best = ranked.filter((outcome) => outcome.chosen !== null).slice(0, options.top);
  for (const [index, outcome] of best.entries()) {
    const note = closeNote(outcome);
    const caveat = note === null ? '' : ` (${note}: confirm both with a real sweep)`;
    lines.push(`#${index + 1} ${outcome.candidate.label}: ${outcome.perCard.toFixed(1)} output tok/s per card at concurrency ${outcome.chosen?.load}${caveat}`);
    const commands = renderLaunchCommands(outcome.candidate, { modelPath: options.modelPath, devicesPerNode: options.devicesPerNode, extraFlags: runningCap(outcome) });
    for (const command of commands) lines.push(`  ${command}`);
  }
  return lines;
}

/** How many configurations the model cannot tell from the best (`ranked` best first); nothing when none was evaluated. */
export function formatSeparationSummary(ranked: readonly CandidateOutcome[], expectedError: CrossValidationSummary | null): string[] {
  if (ranked[0] === undefined || ranked[0].chosen === null) return [];
  if (expectedError === null) {
    return ['The performance model has no cross-validated error yet, so how far apart two configurations must be to be told apart is not known: confirm #1 with a real sweep'];
  }
  const close = indistinguishableFromBest(ranked, expectedError).size;
  const within = `output tok/s per card within the model's expected error, ${formatErrorPercent(expectedError.outputThroughput)}, of #1`;
  if (close === 0) return [`No other configuration is indistinguishable from #1 at the model's accuracy (${within})`];
  const count = close === 1 ? '1 configuration is' : `${close} configurations are`;
  return [`${count} indistinguishable from #1 at the model's accuracy (${within}): confirm with a real sweep`];
}
