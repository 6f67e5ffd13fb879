/** The result records bench appends to its JSONL file, read back in tests. */
import { readFileSync } from 'node:fs';

/** The last record of `path`. The records are Python json.dumps output, whose Infinity and NaN tokens only Python reads. */
export function lastRecord(path: string): Record<string, unknown> {
  const line = readFileSync(path, 'utf8').trim().split('\n').at(-1)!;
  return JSON.parse(line.replace(/\bInfinity\b/g, '1e999').replace(/\bNaN\b/g, 'null')) as Record<string, unknown>;
}
