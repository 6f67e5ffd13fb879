/**
 * Shell word expansion for recipe scripts, limited to what a script itself determines: variables
 * and arrays it assigned (`$N`, `${N}`, `${N:-default}`, `${A[i]}`, `${A[@]}`, `${!A[@]}`,
 * `${#A[@]}`), arithmetic (`$(( ))`, `$(expr ...)`) and `$(echo ...)`. Anything only the runtime
 * knows (an unset variable, `$1`, `$(hostname -I)`) is left as written and reported, so a flag
 * holding it reads as "a shell variable of unknown value", never as an invented value.
 */
import { closingBracketIndex, readShellWords } from '../../core/command-line.js';

/** A variable's value: a string, or an array's elements. A variable absent from the map is unknown. */
export type ShellValue = string | readonly string[];
export type ShellVariables = Map<string, ShellValue>;

/** A word after expansion: one or more words (an array expansion gives several) and the expansions left as written. */
export interface ExpandedWord {
  words: string[];
  unknown: string[];
}

const NAME = /^[A-Za-z_]\w*$/;

/** A script's words as written, for expandWord to expand. */
export function rawWords(text: string): string[] {
  return readShellWords(text, { keep: 'as-written' }).words;
}

/** Integer arithmetic of `$(( ))`, `expr` and C-style `for` conditions; null when a term is unknown or the syntax is not understood. */
export function arithmetic(expression: string, variables: ShellVariables): number | null {
  const tokens = expression.match(/\d+|[A-Za-z_]\w*|<=|>=|==|!=|&&|\|\||[-+*/%()<>!]/g) ?? [];
  if (tokens.join('') !== expression.replace(/\s+/g, '')) return null;
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const binary = (next: () => number | null, ops: Record<string, (a: number, b: number) => number>): (() => number | null) => () => {
    let left = next();
    while (left !== null && peek()! in ops) {
      const op = tokens[pos++]!;
      const right = next();
      if (right === null) return null;
      left = ops[op]!(left, right);
    }
    return left;
  };
  const primary = (): number | null => {
    const token = tokens[pos++];
    if (token === undefined) return null;
    if (token === '(') {
      const value = logical();
      return tokens[pos++] === ')' ? value : null;
    }
    if (token === '-') return negate(primary());
    if (token === '+') return primary();
    if (token === '!') return truth(primary());
    if (/^\d+$/.test(token)) return Number(token);
    const value = variables.get(token);
    const text = Array.isArray(value) ? value[0] : value;
    return typeof text === 'string' && /^-?\d+$/.test(text.trim()) ? Number(text) : null;
  };
  const product = binary(primary, { '*': (a, b) => a * b, '/': (a, b) => Math.trunc(a / b), '%': (a, b) => a % b });
  const sum = binary(product, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const comparison = binary(sum, { '<': (a, b) => +(a < b), '<=': (a, b) => +(a <= b), '>': (a, b) => +(a > b), '>=': (a, b) => +(a >= b) });
  const equality = binary(comparison, { '==': (a, b) => +(a === b), '!=': (a, b) => +(a !== b) });
  const logical = binary(equality, { '&&': (a, b) => +(a !== 0 && b !== 0), '||': (a, b) => +(a !== 0 || b !== 0) });
  const value = logical();
  return pos === tokens.length && value !== null && Number.isFinite(value) ? value : null;
}

function negate(value: number | null): number | null {
  return value === null ? null : -value;
}

function truth(value: number | null): number | null {
  return value === null ? null : +(value === 0);
}

/** The value of `${...}`'s inside; undefined when unknown. Arrays come back as arrays. */
function parameter(inside: string, variables: ShellVariables): ShellValue | undefined {
  const length = /^#([A-Za-z_]\w*)(\[[@*]\])?$/.exec(inside);
  if (length) {
    const value = variables.get(length[1]!);
    if (value === undefined) return undefined;
    return String(Array.isArray(value) ? value.length : (value as string).length);
  }
  const indices = /^!([A-Za-z_]\w*)\[[@*]\]$/.exec(inside);
  if (indices) {
    const value = variables.get(indices[1]!);
    return value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map((_, i) => String(i));
  }
  const element = /^([A-Za-z_]\w*)\[([^\]]+)\]$/.exec(inside);
  if (element) {
    const value = variables.get(element[1]!);
    if (value === undefined) return undefined;
    const array = Array.isArray(value) ? value : [value as string];
    if (element[2] === '@' || element[2] === '*') return array;
    const index = arithmetic(expandText(element[2]!, variables).text, variables);
    return index === null ? undefined : array[index];
  }
  const withDefault = /^([A-Za-z_]\w*)(:?)-(.*)$/.exec(inside);
  if (withDefault) {
    const value = variables.get(withDefault[1]!);
    const unset = value === undefined || (withDefault[2] === ':' && value === '');
    if (!unset) return value;
    const fallback = expandText(withDefault[3]!, variables);
    return fallback.unknown.length ? undefined : fallback.text;
  }
  return NAME.test(inside) ? scalar(variables.get(inside)) : undefined;
}

/** A variable named without an index: an array stands for its first element, as in bash. */
function scalar(value: ShellValue | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/** The output of a command substitution the script determines (`expr`, `echo`); undefined for any other command. */
function substitution(command: string, variables: ShellVariables): string | undefined {
  const words: string[] = [];
  for (const raw of rawWords(command)) {
    const expanded = expandWord(raw, variables);
    if (expanded.unknown.length) return undefined;
    words.push(...expanded.words);
  }
  if (words[0] === 'echo') return words.slice(1).filter((w) => !/^-[neE]+$/.test(w)).join(' ');
  if (words[0] === 'expr') {
    const value = arithmetic(words.slice(1).join(' '), variables);
    return value === null ? undefined : String(value);
  }
  return undefined;
}

/** One expansion starting with `$` at `start`: its value (undefined: unknown) and where it ends. */
function expansionAt(text: string, start: number, variables: ShellVariables): { value: ShellValue | undefined; end: number } {
  const next = text[start + 1];
  if (next === '(' && text[start + 2] === '(') {
    const end = closingBracketIndex(text, start + 1);
    if (end < 0) return { value: undefined, end: text.length - 1 };
    const inner = expandText(text.slice(start + 3, end - 1), variables);
    const value = inner.unknown.length ? null : arithmetic(inner.text, variables);
    return { value: value === null ? undefined : String(value), end };
  }
  if (next === '(' || next === '{') {
    const end = closingBracketIndex(text, start + 1);
    if (end < 0) return { value: undefined, end: text.length - 1 };
    const inside = text.slice(start + 2, end);
    return { value: next === '(' ? substitution(inside, variables) : parameter(inside, variables), end };
  }
  const name = /^[A-Za-z_]\w*/.exec(text.slice(start + 1));
  if (name) return { value: scalar(variables.get(name[0])), end: start + name[0].length };
  // `$1`, `$@`, `$?`, `$$`: only the running shell knows them.
  return { value: undefined, end: /[\d@*#?$!-]/.test(next ?? '') ? start + 1 : start };
}

/**
 * A word with its quotes removed and its expansions made: `"${IPs[@]}"` gives one word per element,
 * anything else one word (an array inside a longer word joins with spaces).
 */
export function expandWord(raw: string, variables: ShellVariables): ExpandedWord {
  const whole = /^"?\$\{(!?[A-Za-z_]\w*\[[@*]\])\}"?$/.exec(raw);
  if (whole) {
    const value = parameter(whole[1]!, variables);
    if (value !== undefined) return { words: Array.isArray(value) ? [...value] : [value as string], unknown: [] };
  }
  const { text, unknown } = expandText(raw, variables, true);
  return { words: [text], unknown };
}

/**
 * Text with expansions made; with `unquote`, quotes and backslashes are removed as the shell does.
 * An unknown expansion stays as written.
 */
export function expandText(raw: string, variables: ShellVariables, unquote = false): { text: string; unknown: string[] } {
  let text = '';
  const unknown: string[] = [];
  let inDouble = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\\' && i + 1 < raw.length && (!inDouble || /[$`"\\]/.test(raw[i + 1]!))) {
      text += unquote ? raw[i + 1] : raw.slice(i, i + 2);
      i++;
    } else if (ch === "'" && !inDouble) {
      const end = raw.indexOf("'", i + 1);
      const stop = end < 0 ? raw.length : end;
      text += unquote ? raw.slice(i + 1, stop) : raw.slice(i, stop + 1);
      i = stop;
    } else if (ch === '"') {
      inDouble = !inDouble;
      if (!unquote) text += ch;
    } else if (ch === '`') {
      const end = raw.indexOf('`', i + 1);
      const stop = end < 0 ? raw.length - 1 : end;
      const value = substitution(raw.slice(i + 1, stop), variables);
      if (value === undefined) unknown.push(raw.slice(i, stop + 1));
      text += value ?? raw.slice(i, stop + 1);
      i = stop;
    } else if (ch === '$') {
      const { value, end } = expansionAt(raw, i, variables);
      const written = raw.slice(i, end + 1);
      if (value === undefined && written !== '$') unknown.push(written);
      text += value === undefined ? written : Array.isArray(value) ? value.join(' ') : value;
      i = end;
    } else {
      text += ch;
    }
  }
  return { text, unknown };
}
