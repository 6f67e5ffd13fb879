/**
 * Reads a `python -m sglang.bench_serving ...` command line into the arguments it states, keyed
 * like bench_serving's Namespace (snake_case). Unique-prefix abbreviations resolve as argparse
 * does (`--num-prompt` → `num_prompts`). Options the command does not give stay absent: their
 * defaults are bench_serving's business, not a fact of the log.
 */
import { BENCH_OPTIONS } from '../../bench/index.js';
import { parseFlags } from './shell-command.js';

/** bench_serving's option names in definition order (spec §1.2). */
const OPTIONS: readonly string[] = BENCH_OPTIONS.map((option) => option.dest);
const LIST_OPTIONS = new Set<string>(BENCH_OPTIONS.filter((option) => option.nargs !== undefined).map((option) => option.dest));
const STRING_OPTIONS = new Set<string>(BENCH_OPTIONS.filter((option) => option.kind === 'str' && option.nargs === undefined).map((option) => option.dest));

/** Resolves an option name as argparse would: exact, else a unique prefix; null when unknown or ambiguous. */
export function resolveBenchOption(flag: string): string | null {
  const dest = flag.replace(/^--/, '').replace(/-/g, '_');
  if (OPTIONS.includes(dest)) return dest;
  const matches = OPTIONS.filter((o) => o.startsWith(dest));
  return matches.length === 1 ? matches[0]! : null;
}

function convert(dest: string, value: string | true): unknown {
  if (value === true) return LIST_OPTIONS.has(dest) ? [] : true;
  if (LIST_OPTIONS.has(dest)) return value.split(' ');
  if (STRING_OPTIONS.has(dest)) return value;
  if (/^[-+]?(inf|infinity)$/i.test(value)) return value.startsWith('-') ? -Infinity : Infinity;
  const n = Number(value);
  return value !== '' && Number.isFinite(n) ? n : value;
}

/** The arguments a bench command states (snake_case); unknown options become warnings. */
export function parseBenchCommand(args: readonly string[], warnings: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(parseFlags(args).flags)) {
    const dest = resolveBenchOption(flag);
    if (!dest) {
      warnings.push(`bench command option ${flag} is not a bench_serving option; ignored`);
      continue;
    }
    out[dest] = convert(dest, value);
  }
  return out;
}
