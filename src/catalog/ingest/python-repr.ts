/**
 * Reads the Python repr of bench_serving's argparse Namespace (`benchmark_args=Namespace(k=v, ...)`):
 * strings in either quote style with escapes, ints, floats (`inf`, `nan`, `1e-05`), None, True,
 * False, lists, tuples and dicts. Pure; throws `ReprError` on text it cannot read.
 */
import { ServebenchError } from '../../core/errors.js';

export class ReprError extends ServebenchError {
  readonly code = 'E_REPR';
}

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  peek(): string {
    this.skipSpace();
    return this.text[this.pos] ?? '';
  }

  expect(ch: string): void {
    if (this.peek() !== ch) throw new ReprError(`expected '${ch}' at offset ${this.pos}`);
    this.pos++;
  }

  value(): unknown {
    const ch = this.peek();
    if (ch === "'" || ch === '"') return this.string(ch);
    if (ch === '[') return this.sequence('[', ']');
    if (ch === '(') return this.sequence('(', ')');
    if (ch === '{') return this.dict();
    const word = /^[-+]?(\d+\.?\d*(e[-+]?\d+)?|\.\d+(e[-+]?\d+)?|[A-Za-z_][A-Za-z0-9_]*)/i.exec(this.text.slice(this.pos));
    if (!word) throw new ReprError(`unexpected '${ch}' at offset ${this.pos}`);
    this.pos += word[0].length;
    return atom(word[0]);
  }

  string(quote: string): string {
    this.pos++;
    let out = '';
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos++]!;
      if (ch === quote) return out;
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const esc = this.text[this.pos++] ?? '';
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };
      if (esc in simple) out += simple[esc];
      else if (esc === 'x' || esc === 'u' || esc === 'U') {
        const len = esc === 'x' ? 2 : esc === 'u' ? 4 : 8;
        out += String.fromCodePoint(parseInt(this.text.slice(this.pos, this.pos + len), 16));
        this.pos += len;
      } else out += `\\${esc}`;
    }
    throw new ReprError('unterminated string');
  }

  sequence(open: string, close: string): unknown[] {
    this.expect(open);
    const items: unknown[] = [];
    while (this.peek() !== close) {
      items.push(this.value());
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== close) throw new ReprError(`expected ',' or '${close}' at offset ${this.pos}`);
    }
    this.pos++;
    return items;
  }

  dict(): Record<string, unknown> {
    this.expect('{');
    const out: Record<string, unknown> = {};
    while (this.peek() !== '}') {
      const key = this.value();
      this.expect(':');
      out[String(key)] = this.value();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== '}') throw new ReprError(`expected ',' or '}' at offset ${this.pos}`);
    }
    this.pos++;
    return out;
  }
}

function atom(word: string): unknown {
  if (word === 'None') return null;
  if (word === 'True') return true;
  if (word === 'False') return false;
  if (/^[-+]?inf$/.test(word)) return word.startsWith('-') ? -Infinity : Infinity;
  if (word === 'nan') return NaN;
  const n = Number(word);
  if (word !== '' && !Number.isNaN(n)) return n;
  throw new ReprError(`unknown name '${word}'`);
}

/** Parses `Namespace(key=value, ...)` (with or without a `benchmark_args=` prefix) into a plain object. */
export function parseNamespace(text: string): Record<string, unknown> {
  const start = text.indexOf('Namespace(');
  if (start < 0) throw new ReprError('no Namespace( in the text');
  const reader = new Reader(text);
  reader.pos = start + 'Namespace('.length;
  const out: Record<string, unknown> = {};
  while (reader.peek() !== ')') {
    if (reader.peek() === '') throw new ReprError('Namespace( is not closed (truncated line?)');
    const key = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(reader.pos));
    if (!key) throw new ReprError(`expected an argument name at offset ${reader.pos}`);
    reader.pos += key[0].length;
    reader.expect('=');
    out[key[0]] = reader.value();
    if (reader.peek() === '') throw new ReprError('Namespace( is not closed (truncated line?)');
    if (reader.peek() === ',') reader.pos++;
    else if (reader.peek() !== ')') throw new ReprError(`expected ',' or ')' at offset ${reader.pos}`);
  }
  return out;
}
