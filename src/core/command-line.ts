/**
 * Shell text split into words: pasted command lines (`bench --sim "<flags>"`), saved scripts, and
 * the words of a recipe script as written, before its expansions are made. Pure.
 */
import { UsageError } from './errors.js';

/** A line's words, and the quote left open at its end (null when every quote closed). */
export interface ShellWords {
  words: string[];
  openQuote: '"' | "'" | null;
}

export interface ShellWordOptions {
  /**
   * `unquoted` (the default): each word as the command receives it, quotes and backslashes removed.
   * `as-written`: each word as the text spells it, with quotes, backslashes, backticks, `$(...)`,
   * `${...}` and an array assignment's `(...)` kept whole, for a step that expands them later.
   */
  keep?: 'unquoted' | 'as-written';
}

/** The index of the quote closing the one (`'`, `"` or a backtick) opened at `open`; -1 when it never closes. Only double quotes honour a backslash. */
export function closingQuoteIndex(text: string, open: number): number {
  const quote = text[open]!;
  for (let i = open + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** The index of the character closing the bracket opened at `open` (`(`, `{`), skipping quoted text; -1 when unclosed. */
export function closingBracketIndex(text: string, open: number): number {
  const opener = text[open]!;
  const closer = opener === '(' ? ')' : '}';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
    } else if (ch === "'") {
      i = closingQuoteIndex(text, i);
      if (i < 0) return -1;
    } else if (ch === opener) {
      depth++;
    } else if (ch === closer && --depth === 0) {
      return i;
    }
  }
  return -1;
}

const ARRAY_ASSIGNMENT_START = /^[A-Za-z_]\w*\+?=$/;

/**
 * Splits one line into words as a POSIX shell does: single and double quotes (backslash escapes
 * `"\$` and backtick inside double quotes), backslash escapes, backslash-newline continuations,
 * and a `#` at the start of a word beginning a comment. An unterminated quote (as written, also
 * an unclosed `$(`, `${` or backtick) runs to the end.
 */
export function readShellWords(line: string, { keep = 'unquoted' }: ShellWordOptions = {}): ShellWords {
  const asWritten = keep === 'as-written';
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let openQuote: ShellWords['openQuote'] = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    if (ch === '#' && !inWord) break;
    if (ch === '\\') {
      const next = line[++i];
      if (asWritten) word += `\\${next ?? ''}`;
      // A backslash-newline only joins lines, and a trailing backslash escapes nothing: neither starts a word.
      else if (next === undefined || next === '\n') continue;
      else word += next;
    } else if (ch === "'" || ch === '"' || (asWritten && ch === '`')) {
      // As written, `\"` ends a double quote all the same: recipe scripts' words have always split there.
      const close = asWritten && ch === '"' ? line.indexOf('"', i + 1) : closingQuoteIndex(line, i);
      if (close < 0 && ch !== '`') openQuote = ch;
      const end = close < 0 ? line.length : close;
      word += asWritten ? line.slice(i, end + 1) : unquote(ch, line.slice(i + 1, end));
      i = end;
    } else if (asWritten && ((ch === '$' && (line[i + 1] === '(' || line[i + 1] === '{')) || (ch === '(' && ARRAY_ASSIGNMENT_START.test(word)))) {
      const close = closingBracketIndex(line, ch === '$' ? i + 1 : i);
      const end = close < 0 ? line.length : close;
      word += line.slice(i, end + 1);
      i = end;
    } else {
      word += ch;
    }
    inWord = true;
  }
  if (inWord) words.push(word);
  return { words, openQuote };
}

/** The text inside a quote as the command receives it: inside double quotes a backslash escapes only `"\$` and backtick. */
function unquote(quote: string, inside: string): string {
  return quote === '"' ? inside.replace(/\\(["\\$`])/g, '$1') : inside;
}

/** Splits a pasted command line (as given to `bench --sim "<flags>"`); an unterminated quote is a usage error. */
export function splitCommandLine(line: string): string[] {
  const { words, openQuote } = readShellWords(line);
  if (openQuote !== null) throw new UsageError(`unterminated ${openQuote} quote in launch command: ${line}`);
  return words;
}
