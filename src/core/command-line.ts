/** Shell text split into argv words: pasted command lines (`bench --sim "<flags>"`) and saved scripts. Pure. */
import { UsageError } from './errors.js';

/** A line's words, and the quote left open at its end (null when every quote closed). */
export interface ShellWords {
  words: string[];
  openQuote: '"' | "'" | null;
}

/**
 * Splits one line into words as a POSIX shell does: single and double quotes (backslash escapes
 * `"\$` and backtick inside double quotes), backslash escapes, backslash-newline continuations,
 * and a `#` at the start of a word beginning a comment. An unterminated quote runs to the end.
 */
export function readShellWords(line: string): ShellWords {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else current += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) current += line[++i];
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      const next = line[i + 1];
      i++;
      if (next === undefined || next === '\n') continue;
      current += next;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else if (ch === '#' && !inWord) {
      break;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return { words, openQuote: quote };
}

/** Splits a pasted command line (as given to `bench --sim "<flags>"`); an unterminated quote is a usage error. */
export function splitCommandLine(line: string): string[] {
  const { words, openQuote } = readShellWords(line);
  if (openQuote !== null) throw new UsageError(`unterminated ${openQuote} quote in launch command: ${line}`);
  return words;
}
