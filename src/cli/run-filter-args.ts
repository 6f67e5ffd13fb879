/** Readers of the `--label KEY=VALUE`, `--since`, `--mode` and run-filter options several commands share. */
import type { ArgumentParser } from 'argparse';
import { UsageError } from '../core/errors.js';
import { splitLabelPair } from '../core/label-pair.js';
import { RUN_MODES, type RunFilter, type RunMode } from '../catalog/index.js';

/** The run filters `runs`, `table` and the dashboard's run list offer. */
export interface RunFilterArgs {
  model: string | null;
  hardware: string | null;
  label: string[] | null;
  since: string | null;
  /** `--mode`: comma-separated modes, or `all`. */
  mode: string;
}

/** Adds `--model`, `--hardware`, `--label`, `--since` and `--mode` (default `modes`) to a command. */
export function addRunFilterArguments(parser: ArgumentParser, modes: string): void {
  parser.add_argument('--model', { help: 'only runs whose model contains this text (case-insensitive)' });
  parser.add_argument('--hardware', { help: "only runs whose hardware contains this text (case-insensitive): the 'hardware' label, else the device the server reported (the sim's)" });
  parser.add_argument('--label', { action: 'append', metavar: 'KEY=VALUE', help: 'only runs with this label (repeatable)' });
  parser.add_argument('--since', { help: 'only runs recorded or started at/after: a date (2026-01-31) or look-back (7d, 12h)' });
  parser.add_argument('--mode', {
    default: modes,
    metavar: 'MODES',
    help: `only runs of these modes, comma-separated: ${RUN_MODES.join(', ')} (a run against servebench's sim is simulated, a prediction predicted), or all (default: ${modes})`,
  });
}

/** `--mode` text as modes: `all`, or a comma-separated list of known ones; anything else is a usage error. */
export function parseModes(text: string): RunMode[] {
  if (text.trim() === 'all') return [...RUN_MODES];
  const modes = text.split(',').map((mode) => mode.trim());
  const unknown = modes.find((mode) => !(RUN_MODES as readonly string[]).includes(mode));
  if (unknown !== undefined) throw new UsageError(`--mode '${unknown}' is not a run mode; give ${RUN_MODES.join(', ')} (comma-separated) or all`);
  return modes as RunMode[];
}

/** The `listRuns` filter of `--model`, `--hardware`, `--label`, `--since` and `--mode`; bad values are usage errors. */
export function runFilterOf(args: RunFilterArgs): RunFilter {
  return {
    ...(args.model ? { model: args.model } : {}),
    ...(args.hardware ? { hardware: args.hardware } : {}),
    labels: parseLabels(args.label),
    ...(args.since ? { since: parseSince(args.since) } : {}),
    modes: parseModes(args.mode),
  };
}

/** `--label k=v` values as a record; a value without `=` or with an empty key is a usage error. */
export function parseLabels(pairs: readonly string[] | null | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const label = splitLabelPair(pair);
    if (!label) throw new UsageError(`--label '${pair}' is not key=value (e.g. --label hardware=ascend-910c)`);
    labels[label[0]] = label[1];
  }
  return labels;
}

/** `--since`: an ISO date/time, or a look-back like `7d`, `12h`, `30m`; returns an ISO time. */
export function parseSince(text: string, now: Date = new Date()): string {
  const relative = /^(\d+(?:\.\d+)?)\s*([dhm])$/i.exec(text.trim());
  if (relative) {
    const unitMs = { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2]!.toLowerCase() as 'd' | 'h' | 'm'];
    return new Date(now.getTime() - Number(relative[1]) * unitMs).toISOString();
  }
  const date = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(date.getTime())) {
    throw new UsageError(`--since '${text}' is not a date (2026-01-31, 2026-01-31T12:00Z) or a look-back (7d, 12h, 30m)`);
  }
  return date.toISOString();
}
