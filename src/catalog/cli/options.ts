/**
 * Command-line plumbing shared by the catalog commands (ingest, runs, show, compare, table, plot,
 * dashboard): an argparse parser whose errors are `UsageError`s (never `process.exit`), `--db`,
 * the command shell around it, the catalog's open/close, and `--label key=value` / `--since` readers.
 */
import { ArgumentParser } from 'argparse';
import { UsageError } from '../../core/errors.js';
import { splitLabelPair } from '../../core/label-pair.js';
import { openCatalog, type Catalog, type OpenCatalogOptions } from '../store/catalog.js';
import type { RunFilter } from '../types.js';

/** A parser for `servebench <name>` with `-h/--help` and `--db`. */
export function catalogParser(name: string, description: string): ArgumentParser {
  const parser = new ArgumentParser({ prog: `servebench ${name}`, description, add_help: false, exit_on_error: false });
  parser.add_argument('-h', '--help', { action: 'store_true', help: 'show this help and exit' });
  parser.add_argument('--db', {
    metavar: 'PATH',
    help: 'catalog database (default: $SERVEBENCH_DB, else $XDG_DATA_HOME/servebench/catalog.db)',
  });
  const fail = (message: string): never => {
    throw new UsageError(message);
  };
  Object.assign(parser, { error: fail, exit: (_status: number, message?: string) => fail(message ?? 'invalid arguments') });
  return parser;
}

/**
 * Parses argv; returns null after printing help for `-h/--help`.
 * Unknown options are usage errors naming the option.
 */
export function parseOrHelp<T>(parser: ArgumentParser, argv: readonly string[]): T | null {
  // Before parsing, so `ingest --help` is not refused for its missing FILE.
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(parser.format_help());
    return null;
  }
  let parsed: Record<string, unknown>;
  let extras: string[];
  try {
    [parsed, extras] = parser.parse_known_args([...argv]) as [Record<string, unknown>, string[]];
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // argparse's ArgumentError ("argument --limit: invalid int value: 'x'") is a usage error.
    throw new UsageError((error as Error).message);
  }
  if (extras.length) throw new UsageError(`unrecognized arguments: ${extras.join(' ')}`);
  return { ...parsed } as T;
}

/** What every catalog command's parsed arguments carry. */
export interface CatalogArgs {
  db: string | null;
}

export interface CatalogCommandSpec<T extends CatalogArgs> {
  /** The subcommand name, as typed after `servebench`. */
  name: string;
  /** One line for `servebench --help`. */
  summary: string;
  /** The description `servebench <name> --help` prints. */
  description: string;
  /** Adds the command's own arguments to the parser, which already has `-h/--help` and `--db`. */
  addArguments(parser: ArgumentParser): void;
  /** Runs on the parsed arguments; resolves to the exit code. */
  run(args: T): Promise<number>;
}

/** A catalog command: builds its parser, prints help for `-h/--help` (exit 0), else runs on the parsed argv. */
export function catalogCommand<T extends CatalogArgs>(spec: CatalogCommandSpec<T>): { summary: string; run(argv: string[]): Promise<number> } {
  return {
    summary: spec.summary,
    async run(argv) {
      const parser = catalogParser(spec.name, spec.description);
      spec.addArguments(parser);
      const args = parseOrHelp<T>(parser, argv);
      return args ? spec.run(args) : 0;
    },
  };
}

/**
 * Opens the catalog at `db` (an existing one unless `options` say otherwise: only ingest creates
 * one) for the length of `use`, and closes it however `use` ends.
 */
export async function withCatalog<R>(
  db: string | null,
  use: (catalog: Catalog) => R | Promise<R>,
  options: OpenCatalogOptions = { mustExist: true },
): Promise<R> {
  const catalog = openCatalog(db, options);
  try {
    return await use(catalog);
  } finally {
    catalog.close();
  }
}

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
