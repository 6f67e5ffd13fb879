/**
 * The one argument parser shell and help renderer of every command: the `argparse` port (SGLang's
 * look), its errors turned into one UsageError line instead of a usage dump and `process.exit`,
 * and each option's default appended to its help as Python's ArgumentDefaultsHelpFormatter writes it.
 */
import { ArgumentParser, type ArgumentGroup, type ArgumentOptions } from 'argparse';
import { UsageError } from './errors.js';
import { pyFloatRepr } from './pyformat.js';
import { pyRepr, type PyValue } from './pyrepr.js';

/** How a default prints: a float as Python writes one (`0.0`, `inf`), anything else as `str()` does. */
export type DefaultKind = 'str' | 'int' | 'float' | 'flag';

/** Python's `str()` of a default: floats as Python writes them (`inf`, `1.0`), strings unquoted. */
function pythonStr(value: unknown, kind: DefaultKind): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return kind === 'float' ? pyFloatRepr(value) : String(value);
  return pyRepr(value as PyValue);
}

/**
 * `help` with ` (default: X)` appended (`%(default)s` of Python's ArgumentDefaultsHelpFormatter).
 * A default that means "not set" (None, a switch's False, the empty string) says nothing and is left out.
 */
export function helpWithDefault(help: string, value: unknown, kind: DefaultKind = 'str'): string {
  if (value === null || value === undefined || value === false || value === '') return help;
  // argparse expands help with %-formatting, so a literal % must be doubled.
  return `${help} (default: ${pythonStr(value, kind).replaceAll('%', '%%')})`;
}

/** `add_argument` with any number of names (the typings allow two) and the default shown in the help. */
export function addOption(target: ArgumentGroup, names: readonly string[], options: ArgumentOptions & { help: string }, kind: DefaultKind = 'str'): void {
  const add = target.add_argument as (...args: unknown[]) => void;
  // argparse expands help with %-formatting: a literal % is written %%.
  add.call(target, ...names, { ...options, help: helpWithDefault(options.help.replaceAll('%', '%%'), options.default, kind) });
}

/** An option as help lists it, for commands that parse their options outside argparse. */
export interface HelpEntry {
  /** With their dashes: `--tp-size`. */
  names: readonly string[];
  /** The value's placeholder; absent for a switch. */
  metavar?: string;
  help: string;
  default?: unknown;
  kind?: DefaultKind;
}

export interface HelpGroup {
  title: string;
  /** One paragraph under the title, wrapped by argparse. */
  description?: string;
  entries: readonly HelpEntry[];
}

/** Lists each group's entries under its title in the parser's help. */
export function addHelpGroups(parser: ArgumentParser, groups: readonly HelpGroup[]): void {
  for (const group of groups) {
    const target = parser.add_argument_group({ title: group.title, description: group.description });
    for (const entry of group.entries) {
      const shape: ArgumentOptions = entry.metavar === undefined ? { action: 'store_true' } : { metavar: entry.metavar };
      addOption(target, entry.names, { ...shape, default: entry.default, help: entry.help }, entry.kind);
    }
  }
}

export interface ParserSpec {
  /** The subcommand, as typed after `servebench`. */
  name: string;
  /** One paragraph below the usage, wrapped by argparse. */
  description: string;
  /** The usage after `usage: `, when argparse's own (every option) would say less. */
  usage?: string;
}

/** A parser for `servebench <name>` with `-h/--help`, whose errors are UsageErrors. */
export function commandParser(spec: ParserSpec): ArgumentParser {
  const parser = new ArgumentParser({
    prog: `servebench ${spec.name}`,
    usage: spec.usage,
    description: spec.description,
    add_help: false,
    exit_on_error: false,
  });
  parser.add_argument('-h', '--help', { action: 'store_true', help: 'show this help and exit' });
  const fail = (message: string): never => {
    throw new UsageError(message);
  };
  Object.assign(parser, { error: fail, exit: (_status: number, message?: string) => fail(message ?? 'invalid arguments') });
  return parser;
}

/** Whether argv asks for help. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('-h') || argv.includes('--help');
}

/**
 * Parses argv; returns null after printing help for `-h/--help`.
 * Unknown options are usage errors naming the option.
 */
export function parseOrHelp<T>(parser: ArgumentParser, argv: readonly string[]): T | null {
  // Before parsing, so `ingest --help` is not refused for its missing FILE.
  if (wantsHelp(argv)) {
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
