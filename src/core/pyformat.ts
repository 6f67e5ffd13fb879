/**
 * Python's text forms of numbers, so printed blocks, reprs and JSON match CPython byte for byte.
 * JavaScript differs in three places that matter here: `toFixed` rounds exact binary ties away
 * from zero (Python: half to even), `String(x)` switches to exponent form at other thresholds and
 * drops `.0`, and non-finite values print as `Infinity`/`NaN`.
 */

/**
 * Marks a number as a Python `float`. A plain JS number prints as an `int` when it is integral
 * and as a float otherwise; wrap integral values that Python holds as floats (`16.0`, `0.0`).
 */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Wraps `value` so it prints as a Python float (`1.0`, not `1`). */
export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

/** Lists whose items all print as Python floats, marked by {@link pyFloats}. */
const FLOAT_LISTS = new WeakSet<readonly number[]>();

/**
 * Marks `values` as a list of Python floats and returns the same array, still a plain array to
 * any other reader: one mark instead of a {@link PyFloat} per item, for long lists such as
 * per-request ITL arrays.
 */
export function pyFloats(values: readonly number[]): readonly number[] {
  FLOAT_LISTS.add(values);
  return values;
}

/** True for a list marked by {@link pyFloats}. */
export function isPyFloatList(values: readonly unknown[]): values is readonly number[] {
  return FLOAT_LISTS.has(values as readonly number[]);
}

/** Python `repr(float)` (= `str(float)`): shortest round-trip digits, `.0`, `inf`, `nan`, `1e-05`, `1e+16`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    // Python's plain-notation range; JS prints the same shortest digits in plain notation here.
    const text = String(x);
    return text.includes('.') ? text : `${text}.0`;
  }
  // Exponent form; toExponential() without an argument yields the same shortest digits.
  const [mantissa, exponentText] = x.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const exponentSign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** The exact value of a finite double as `mantissa * 2^exponent` (mantissa ≥ 0). */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biasedExponent = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  if (biasedExponent === 0) return { mantissa, exponent: -1074 };
  mantissa |= 1n << 52n;
  return { mantissa, exponent: biasedExponent - 1075 };
}

/**
 * Python `format(x, '.{precision}f')`: the exact binary value rounded half to even, any
 * magnitude in plain digits, `-` kept on negative values that round to zero, `inf`/`nan`.
 */
export function formatFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const { mantissa, exponent } = decompose(x);
  const scaled = mantissa * 10n ** BigInt(precision);
  let units: bigint;
  if (exponent >= 0) {
    units = scaled << BigInt(exponent);
  } else {
    const shift = BigInt(-exponent);
    units = scaled >> shift;
    const remainder = scaled - (units << shift);
    const half = 1n << (shift - 1n);
    if (remainder > half || (remainder === half && (units & 1n) === 1n)) units += 1n;
  }
  const digits = units.toString().padStart(precision + 1, '0');
  const body =
    precision === 0 ? digits : `${digits.slice(0, -precision)}.${digits.slice(-precision)}`;
  return negative ? `-${body}` : body;
}

/** Python `str.ljust` / the `{:<W}` format: pads on the right, never truncates. */
export function ljust(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** Python `'{:{fill}^{width}}'.format(text)`: centred, the odd fill character goes on the right. */
export function center(text: string, width: number, fill: string): string {
  const padding = width - text.length;
  if (padding <= 0) return text;
  const left = Math.floor(padding / 2);
  return fill.repeat(left) + text + fill.repeat(padding - left);
}

/** Python `str(x)` of an int-or-float number: integral JS numbers print as ints unless wrapped in {@link PyFloat}. */
export function pyNumberStr(value: number | PyFloat): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
}
