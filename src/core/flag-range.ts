/**
 * The one check every numeric command-line flag of every command goes through: the text is read
 * with Python's `int()`/`float()` grammar (the flags are argparse's in bench_serving and SGLang) and
 * the value must lie in the flag's range, else a one-line usage error (exit 2) names the flag, the
 * value and the range before anything starts. Unchecked values used to hang (`--max-concurrency
 * -1`), never end (`--request-rate 0`) or be silently accepted (`runs --limit -1`).
 */
import { ArgumentTypeError } from 'argparse';
import { UsageError } from './errors.js';
import { parsePythonFloat, parsePythonInt } from './pynumber.js';

/** `int` takes whole numbers only; `float` any number (never NaN). */
export type NumberKind = 'int' | 'float';

/** Allowed values of one flag. Without `max` only finite values pass; `max: Infinity` admits `inf`. */
export interface FlagRange {
  /** Smallest allowed value. */
  min?: number;
  /** Values must be strictly greater than this. */
  above?: number;
  /** Largest allowed value. */
  max?: number;
  /** What a special value means, for the message (e.g. `0: no limit`). */
  meaning?: string;
}

/** The largest delay a Node timer takes (2^31 - 1 ms); longer ones fire at once, with a warning. */
export const MAX_TIMER_SECONDS = 2_147_483;

/** Ports a server can listen on; 0 asks the system for a free one. */
export const LISTEN_PORT: FlagRange = { min: 0, max: 65_535, meaning: '0: any free port' };
/** Ports a client can connect to. */
export const CONNECT_PORT: FlagRange = { min: 1, max: 65_535 };
/** Counts of things of which there must be at least one. */
export const AT_LEAST_ONE: FlagRange = { min: 1 };
/** Counts and lengths that may be zero. */
export const NON_NEGATIVE: FlagRange = { min: 0 };
/** Seeds of numpy's and the sim's generators: unsigned 32-bit. */
export const SEED: FlagRange = { min: 0, max: 4_294_967_295 };
/** A fraction of a whole. */
export const FRACTION: FlagRange = { min: 0, max: 1 };

/** The range in words: "an integer from 0 to 65535 (0: any free port)", "a number > 0, or inf". */
export function describeRange(kind: NumberKind, range: FlagRange): string {
  const bounds: string[] = [];
  if (range.min !== undefined && range.max !== undefined && Number.isFinite(range.max)) bounds.push(`from ${range.min} to ${range.max}`);
  else {
    if (range.min !== undefined) bounds.push(`≥ ${range.min}`);
    if (range.above !== undefined) bounds.push(`> ${range.above}`);
    if (range.max !== undefined && Number.isFinite(range.max)) bounds.push(`≤ ${range.max}`);
  }
  let text = `${kind === 'int' ? 'an integer' : 'a number'}${bounds.length > 0 ? ` ${bounds.join(' and ')}` : ''}`;
  if (range.max === Infinity) text += ', or inf';
  return range.meaning === undefined ? text : `${text} (${range.meaning})`;
}

/** `help` with the range appended as every command's help states it: `…; takes an integer ≥ 1`. */
export function withRangeHelp(help: string, kind: NumberKind, range: FlagRange): string {
  return `${help}; takes ${describeRange(kind, range)}`;
}

/** Whether `value` is allowed: never NaN, whole for `int`, infinite only where `max` is Infinity. */
export function isInRange(value: number, kind: NumberKind, range: FlagRange): boolean {
  if (Number.isNaN(value)) return false;
  if (kind === 'int' && !Number.isSafeInteger(value)) return false;
  if (!Number.isFinite(value) && !(value === Infinity && range.max === Infinity)) return false;
  if (range.min !== undefined && value < range.min) return false;
  if (range.above !== undefined && !(value > range.above)) return false;
  return range.max === undefined || value <= range.max;
}

/** The reason a value is refused, without the flag (argparse puts `argument --flag: ` before it). */
function outOfRange(written: string, kind: NumberKind, range: FlagRange): string {
  return `${written} is out of range: expected ${describeRange(kind, range)}`;
}

/** Python's `int()`/`float()` of `text`, or undefined where Python raises ValueError. */
function parseNumber(text: string, kind: NumberKind): number | undefined {
  return kind === 'int' ? parsePythonInt(text) : parsePythonFloat(text);
}

/**
 * An argparse `type` for a numeric flag. Text that is no number reads as argparse's own
 * `invalid int value: 'x'`; a value outside the range as `argument --flag: -1 is out of range: ...`.
 */
export function boundedArgType(kind: NumberKind, range: FlagRange): (text: string) => number {
  const convert = (text: string): number => {
    const value = parseNumber(text, kind);
    // argparse names a TypeError's type function in its message, like Python's ValueError.
    if (value === undefined) throw new TypeError(`invalid ${kind} value: '${text}'`);
    if (!isInRange(value, kind, range)) throw new ArgumentTypeError(outOfRange(text, kind, range));
    return value;
  };
  Object.defineProperty(convert, 'name', { value: kind });
  return convert;
}

/** The value of a numeric flag that is read outside argparse (SGLang launch flags, sweep options). */
export function parseFlagNumber(flag: string, text: string, kind: NumberKind, range: FlagRange): number {
  const value = parseNumber(text, kind);
  if (value === undefined) throw new UsageError(`argument ${flag}: invalid ${kind} value: '${text}'`);
  if (!isInRange(value, kind, range)) throw new UsageError(`argument ${flag}: ${outOfRange(text, kind, range)}`);
  return value;
}
