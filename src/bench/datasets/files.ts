/**
 * Reading dataset files with one-line errors that name the file and the first bad line.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { pythonJsonLoads } from '../../core/pyjson.js';

/** One parsed JSONL record and the 1-based line it came from. */
export interface JsonlRecord {
  line: number;
  value: unknown;
}

/** Reads a whole file, or throws a UserError naming it and `hint` (how to get one). */
export function readDatasetText(path: string, what: string, hint: string): string {
  if (!existsSync(path) || !statSync(path).isFile()) throw new UserError(`${what} not found at ${path}: ${hint}`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    // Exists but unreadable (permissions): still one line naming the file.
    throw new UserError(`cannot read ${what} ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ${hint}`);
  }
}

/** 1-based line number of character offset `position` in `text`. */
function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Where a JSON syntax error is (V8's messages do not always say); null when the strict parser accepts it. */
function syntaxErrorPosition(text: string): number | null {
  try {
    pythonJsonLoads(text);
    return null;
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    return at ? Number(at[1]) : null;
  }
}

/** Parses a JSON document; a syntax error names the file and the line it is on. */
export function parseJsonDocument(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const line = lineAt(text, syntaxErrorPosition(text) ?? text.length);
    throw new UserError(`${path} line ${line}: invalid JSON (${message.split('\n')[0]}); fix the file or pass another --dataset-path`);
  }
}

/**
 * Parses JSONL: blank lines are skipped, the first line that is not valid JSON throws a UserError
 * naming the file and line. `limit` stops after that many records (all when ≤ 0).
 */
export function parseJsonl(text: string, path: string, limit = 0): JsonlRecord[] {
  const records: JsonlRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (limit > 0 && records.length >= limit) break;
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    try {
      records.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (error) {
      throw new UserError(`${path} line ${i + 1}: invalid JSON (${(error as Error).message.split('\n')[0]}); fix the line or remove it`);
    }
  }
  return records;
}
