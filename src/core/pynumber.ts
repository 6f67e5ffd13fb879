/**
 * Python's `int(str)` and `float(str)` conversions, as argparse applies them to option values.
 * JavaScript's `Number()` accepts `''`, `0x10` and `Infinity` only in one spelling, and rejects
 * `inf`, `nan` and `1_000`, so a drop-in command line needs the Python grammar.
 */

const DIGITS = String.raw`\d(?:_?\d)*`;
const INT_PATTERN = new RegExp(`^[+-]?${DIGITS}$`);
const FLOAT_PATTERN = new RegExp(
  `^[+-]?(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:[eE][+-]?${DIGITS})?$`,
);
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/** Python `int(text)` for base 10, or `undefined` where Python raises ValueError (`'1.5'`, `'1e3'`, `''`). */
export function parsePythonInt(text: string): number | undefined {
  const trimmed = text.trim();
  if (!INT_PATTERN.test(trimmed)) return undefined;
  return Number(trimmed.replace(/_/g, ''));
}

/** Python `float(text)`, or `undefined` where Python raises ValueError. Accepts `inf`, `Infinity`, `nan`, `1e3`, `1_000.5`. */
export function parsePythonFloat(text: string): number | undefined {
  const trimmed = text.trim();
  const special = SPECIAL_FLOAT.exec(trimmed);
  if (special !== null) {
    if ((special[2] as string).toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!FLOAT_PATTERN.test(trimmed)) return undefined;
  return Number(trimmed.replace(/_/g, ''));
}
