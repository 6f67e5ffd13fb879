/**
 * The configuration search's report: a ranking table of every candidate and, for the best few,
 * the launch commands to run them (with `--max-running-requests` set to the load they were
 * judged at).
 */
import type { CandidateOutcome } from './config-search.js';
import type { InstancePlan } from './config-space.js';
import { renderLaunchCommands } from './launch-render.js';
import { formatRulelessTable } from './sweep-table.js';
import { outputThroughput, type SweepPoint } from './sweep.js';

function metric(point: SweepPoint | null, key: string): string {
  const value = point?.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(1) : '-';
}

/** Ranking table, best first; a trailing note says why a candidate has no figures. */
export function formatRankingTable(outcomes: readonly CandidateOutcome[]): string {
  const header = ['#', 'configuration', 'mode', 'concurrency', 'out tok/s', 'tok/s/card', 'mean TTFT ms', 'mean TPOT ms', 'runs', 'note'];
  const rows = outcomes.map((outcome, index) => {
    const { chosen } = outcome;
    const note = outcome.skipped ?? (chosen === null ? 'no load meets the SLO' : '');
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

export interface LaunchReportOptions {
  modelPath: string;
  devicesPerNode: number;
  top: number;
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

/** Launch commands of the best `top` evaluated candidates. */
export function formatTopLaunches(outcomes: readonly CandidateOutcome[], options: LaunchReportOptions): string[] {
  const lines: string[] = [];
  const best = outcomes.filter((outcome) => outcome.chosen !== null).slice(0, options.top);
  for (const [index, outcome] of best.entries()) {
    lines.push(`#${index + 1} ${outcome.candidate.label}: ${outcome.perCard.toFixed(1)} output tok/s per card at concurrency ${outcome.chosen?.load}`);
    const commands = renderLaunchCommands(outcome.candidate, { modelPath: options.modelPath, devicesPerNode: options.devicesPerNode, extraFlags: runningCap(outcome) });
    for (const command of commands) lines.push(`  ${command}`);
  }
  return lines;
}
