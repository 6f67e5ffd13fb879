/** Writes a `--json` summary file (pretty-printed), failing with one line that names the path. */
import { writeFileSync } from 'node:fs';
import { UserError } from './errors.js';

/** Serialises `value` to `path`. */
export function writeJsonFile(path: string, value: unknown): void {
  try {
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  } catch (error) {
    throw new UserError(`cannot write --json ${path}: ${(error as Error).message}; choose a writable path`);
  }
}
