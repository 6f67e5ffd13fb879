/**
 * Python's `json` module as bench_serving uses it: `json.dumps` with default settings (the JSONL
 * result lines) and a `json.loads` that keeps the int/float distinction, so a server's JSON
 * (`server_info`) is written back exactly as Python would re-serialise it.
 */
import { PyFloat, isPyFloatList, pyFloatRepr } from './pyformat.js';
import type { PyValue } from './pyrepr.js';

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** ensure_ascii: everything outside ' '..'~' as \uXXXX of its UTF-16 unit (astral = surrogate pair). */
const NEEDS_ESCAPE = /["\\\x00-\x1f\x7f-\uffff]/g;

function escapeJsonString(text: string): string {
  const escaped = text.replace(
    NEEDS_ESCAPE,
    (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}

function floatToken(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return pyFloatRepr(x);
}

/**
 * Python `json.dumps(value)` with default arguments: `", "` and `": "` separators, ASCII-only
 * output, `Infinity`/`NaN` tokens, floats in repr form. Integral JS numbers are ints unless
 * wrapped in {@link PyFloat} or marked with `pyFloats`; object keys keep insertion order; `undefined` members are skipped.
 */
export function pythonJsonDumps(value: PyValue): string {
  if (value === null) return 'null';
  if (value === undefined) throw new TypeError('pythonJsonDumps: undefined is not JSON serializable');
  if (typeof value === 'string') return escapeJsonString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof PyFloat) return floatToken(value.value);
  if (Array.isArray(value) && isPyFloatList(value)) return `[${value.map((item) => floatToken(item)).join(', ')}]`;
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : floatToken(value);
  if (Array.isArray(value)) return `[${value.map((item: PyValue) => pythonJsonDumps(item)).join(', ')}]`;
  const members = Object.entries(value as { readonly [key: string]: PyValue })
    .filter(([, item]) => item !== undefined)
    .map(([key, item]) => `${escapeJsonString(key)}: ${pythonJsonDumps(item)}`);
  return `{${members.join(', ')}}`;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const CONSTANTS: ReadonlyArray<readonly [string, PyValue]> = [
  ['true', true],
  ['false', false],
  ['null', null],
  ['NaN', new PyFloat(NaN)],
  ['Infinity', new PyFloat(Infinity)],
  ['-Infinity', new PyFloat(-Infinity)],
];

/**
 * Python `json.loads(text)`: numbers with a fraction or exponent become {@link PyFloat} (so
 * `1.0` stays a float when dumped again), `NaN`/`Infinity` are accepted. Throws `SyntaxError`.
 */
export function pythonJsonLoads(text: string): PyValue {
  let pos = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`invalid JSON: ${what} at position ${pos}`);
  };
  const skipSpace = (): void => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos] as string)) pos += 1;
  };
  const parseString = (): string => {
    const start = pos;
    pos += 1;
    while (pos < text.length && text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    if (pos >= text.length) fail('unterminated string');
    pos += 1;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const parseValue = (): PyValue => {
    skipSpace();
    const char = text[pos];
    if (char === '"') return parseString();
    if (char === '{') {
      pos += 1;
      const object: Record<string, PyValue> = {};
      skipSpace();
      if (text[pos] === '}') return (pos += 1), object;
      for (;;) {
        skipSpace();
        if (text[pos] !== '"') fail('expected a key');
        const key = parseString();
        skipSpace();
        if (text[pos] !== ':') fail("expected ':'");
        pos += 1;
        object[key] = parseValue();
        skipSpace();
        if (text[pos] === ',') pos += 1;
        else if (text[pos] === '}') return (pos += 1), object;
        else fail("expected ',' or '}'");
      }
    }
    if (char === '[') {
      pos += 1;
      const list: PyValue[] = [];
      skipSpace();
      if (text[pos] === ']') return (pos += 1), list;
      for (;;) {
        list.push(parseValue());
        skipSpace();
        if (text[pos] === ',') pos += 1;
        else if (text[pos] === ']') return (pos += 1), list;
        else fail("expected ',' or ']'");
      }
    }
    for (const [token, constant] of CONSTANTS) {
      if (text.startsWith(token, pos)) return (pos += token.length), constant;
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match === null) return fail('unexpected character');
    pos += match[0].length;
    const isFloat = match[1] !== undefined || match[2] !== undefined;
    return isFloat ? new PyFloat(Number(match[0])) : Number(match[0]);
  };
  const value = parseValue();
  skipSpace();
  if (pos !== text.length) fail('extra data');
  return value;
}
