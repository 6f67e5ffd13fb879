/** Readers of the `--label KEY=VALUE`, `--since` and run-filter options several commands share. */
import { UsageError } from '../core/errors.js';
import { splitLabelPair } from '../core/label-pair.js';
import type { RunFilter } from '../catalog/index.js';

/** The run filters `runs` and `table` both offer. */
export interface RunFilterArgs {
  model: string | null;
  hardware: string | null;
  label: string[] | null;
  since: string | null;
}

/** The `listRuns` filter of `--model`, `--hardware`, `--label` and `--since`; bad labels or dates are usage errors. */
export function runFilterOf(args: RunFilterArgs): RunFilter {
  return {
    ...(args.model ? { model: args.model } : {}),
    ...(args.hardware ? { hardware: args.hardware } : {}),
    labels: parseLabels(args.label),
    ...(args.since ? { since: parseSince(args.since) } : {}),
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
