/**
 * Python `repr()` of the values an argparse Namespace holds: str, None, bool, int, float, list
 * (and dict for completeness). Used to print `Namespace(...)` exactly as bench_serving does.
 */
import { PyFloat, isPyFloatList, pyFloatRepr, pyNumberStr } from './pyformat.js';

/** A value with a Python repr: JSON-like data plus {@link PyFloat}. */
export type PyValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | PyFloat
  | readonly PyValue[]
  | { readonly [key: string]: PyValue };

/** Python's str.isprintable(): categories Other (C*) and Separator (Z*) are not, except ASCII space. */
const NON_PRINTABLE = /^[\p{C}\p{Z}]$/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

function escapeCodePoint(char: string): string {
  const code = char.codePointAt(0) as number;
  if (code < 0x100) return `\\x${hex(code, 2)}`;
  if (code < 0x10000) return `\\u${hex(code, 4)}`;
  return `\\U${hex(code, 8)}`;
}

/** Python `repr(str)`: single quotes unless the text has `'` and no `"`, escapes as CPython does. */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char !== ' ' && NON_PRINTABLE.test(char)) out += escapeCodePoint(char);
    else out += char;
  }
  return out + quote;
}

/** Python `repr(value)` for str, None, bool, int, float ({@link PyFloat} / `pyFloats` for integral floats), list and dict. */
export function pyRepr(value: PyValue): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return pyStrRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || value instanceof PyFloat) return pyNumberStr(value);
  if (Array.isArray(value) && isPyFloatList(value)) return `[${value.map((item) => pyFloatRepr(item)).join(', ')}]`;
  if (Array.isArray(value)) return `[${value.map((item: PyValue) => pyRepr(item)).join(', ')}]`;
  const entries = Object.entries(value as { readonly [key: string]: PyValue });
  return `{${entries.map(([key, item]) => `${pyStrRepr(key)}: ${pyRepr(item)}`).join(', ')}}`;
}
