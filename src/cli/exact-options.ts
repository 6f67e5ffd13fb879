/**
 * Command lines of `predict` and `sweep`: servebench's own options, then `--`, then bench flags.
 * Options match by exact name only (no abbreviations), so they never capture an SGLang launch flag
 * that shares a prefix, such as `--prefill-round-robin-balance`. One table defines the options
 * and their help.
 */
import { UsageError } from '../core/errors.js';
import { parseFlagNumber, type FlagRange, type NumberKind } from '../core/flag-range.js';
import type { DefaultKind, HelpEntry, HelpGroup } from '../core/command-parser.js';

export interface OptionDef {
  name: string;
  /** True when the option takes a value (`--x v` or `--x=v`); false for a switch. */
  takesValue: boolean;
  /** A repeatable option collects every value; otherwise giving it twice is an error. */
  repeatable?: boolean;
}

/** An option and what its help says. */
export interface DocumentedOption extends OptionDef {
  /** The value's placeholder (options that take a value). */
  metavar?: string;
  help: string;
  /** The value when the option is absent, where one value is. */
  default?: unknown;
  kind?: DefaultKind;
}

export interface OptionGroup {
  title: string;
  description?: string;
  options: readonly DocumentedOption[];
}

/** The options of the groups, for parsing. */
export function optionsOf(groups: readonly OptionGroup[]): DocumentedOption[] {
  return groups.flatMap((group) => group.options);
}

function helpEntry(option: DocumentedOption): HelpEntry {
  const help = option.repeatable ? `${option.help} (repeatable)` : option.help;
  const metavar = option.takesValue ? (option.metavar ?? option.name.toUpperCase()) : undefined;
  return { names: [`--${option.name}`], metavar, help, default: option.default, kind: option.kind };
}

/** The groups as help lists them. */
export function helpGroups(groups: readonly OptionGroup[]): HelpGroup[] {
  return groups.map(({ title, description, options }) => ({ title, description, entries: options.map(helpEntry) }));
}

export interface ParsedOptions {
  /** Values by option name (without `--`), in the order given. Switches map to `['']`. */
  values: Map<string, string[]>;
  /** Words that are not among the defined options, in order. */
  rest: string[];
}

/** Splits at the first bare `--`: servebench/launch flags before it, bench flags after it. */
export function splitAtDoubleDash(argv: readonly string[]): { before: string[]; after: string[] } {
  const index = argv.indexOf('--');
  if (index < 0) return { before: [...argv], after: [] };
  return { before: argv.slice(0, index), after: argv.slice(index + 1) };
}

/**
 * Pulls the defined options out of `argv`. Other words are kept in `rest` when `keepUnknown`
 * (they are SGLang launch flags), else an unknown `--option` is a usage error naming `command`.
 */
export function extractOptions(argv: readonly string[], defs: readonly OptionDef[], command: string, keepUnknown: boolean): ParsedOptions {
  const byName = new Map(defs.map((def) => [def.name, def]));
  const values = new Map<string, string[]>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] as string;
    const equals = word.indexOf('=');
    const name = word.startsWith('--') ? word.slice(2, equals < 0 ? undefined : equals) : '';
    const def = byName.get(name);
    if (def === undefined) {
      if (!keepUnknown) {
        throw new UsageError(`${command}: unrecognized argument '${word}'; bench flags go after '--' (run 'servebench ${command} --help')`);
      }
      rest.push(word);
      continue;
    }
    let value = '';
    if (def.takesValue) {
      if (equals >= 0) value = word.slice(equals + 1);
      else {
        const next = argv[i + 1];
        if (next === undefined) throw new UsageError(`${command}: --${name} needs a value`);
        value = next;
        i += 1;
      }
    } else if (equals >= 0) {
      throw new UsageError(`${command}: --${name} takes no value`);
    }
    const list = values.get(name) ?? [];
    if (list.length > 0 && !def.repeatable) throw new UsageError(`${command}: --${name} is given twice; give it once`);
    list.push(value);
    values.set(name, list);
  }
  return { values, rest };
}

/** The single value of an option, or undefined. */
export function optionValue(parsed: ParsedOptions, name: string): string | undefined {
  return parsed.values.get(name)?.[0];
}

/** The value of a numeric option, range-checked as every command's numeric flags are. */
export function numberOption(name: string, text: string, kind: NumberKind, range: FlagRange): number {
  return parseFlagNumber(`--${name}`, text, kind, range);
}
