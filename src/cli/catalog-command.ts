/**
 * The shell of the catalog commands (ingest, runs, show, compare, table, plot, dashboard): their
 * parser with `--db`, help for `-h/--help`, and the catalog's open/close around the run.
 */
import type { ArgumentParser } from 'argparse';
import { openCatalog, type Catalog, type OpenCatalogOptions } from '../catalog/index.js';
import { commandParser, parseOrHelp } from '../core/command-parser.js';
import type { Command } from './main.js';

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

/** A parser for `servebench <name>` with `-h/--help` and `--db`. */
function catalogParser(name: string, description: string): ArgumentParser {
  const parser = commandParser({ name, description });
  parser.add_argument('--db', {
    metavar: 'PATH',
    help: 'catalog database (default: $SERVEBENCH_DB, else $XDG_DATA_HOME/servebench/catalog.db)',
  });
  return parser;
}

/** A catalog command: builds its parser, prints help for `-h/--help` (exit 0), else runs on the parsed argv. */
export function catalogCommand<T extends CatalogArgs>(spec: CatalogCommandSpec<T>): Command {
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
