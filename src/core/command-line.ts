/** Pasted command lines (`bench --sim "<flags>"`, a sweep's `--predict "<flags>"`) split into argv words. Pure. */
import { UsageError } from './errors.js';

/**
 * Splits one pasted command line (as given to `bench --sim "<flags>"`) into words like a POSIX
 * shell: single and double quotes, backslash escapes, and backslash-newline continuations.
 */
export function splitCommandLine(line: string): string[] {
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
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote !== null) throw new UsageError(`unterminated ${quote} quote in launch command: ${line}`);
  if (inWord) words.push(current);
  return words;
}
