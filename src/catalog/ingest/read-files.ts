/**
 * Reads the files `ingest` is given. A file that cannot be read, or holds nothing this reads, is
 * one line naming the problem; the other files are read all the same.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import type { RunInput } from '../types.js';
import { readRunsFromText, recipeFromLaunchCommands, type ReadOptions } from './read-runs.js';

export interface FileRuns {
  file: string;
  runs: RunInput[];
}

export interface IngestedFiles {
  /** The files that gave runs, in the order given. */
  read: FileRuns[];
  /** One line per file that gave none, naming the file and the problem. */
  problems: string[];
}

function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${file}: no such file`);
    if (code === 'EISDIR') throw new UserError(`${file} is a directory; pass the log files in it`);
    throw new UserError(`cannot read ${file} (${code ?? (error as Error).message})`);
  }
  return bytes.toString('utf8');
}

/** The runs of each file. A bad `--launch` command fails the whole call: it concerns every file. */
export function readIngestFiles(files: readonly string[], options: ReadOptions): IngestedFiles {
  if (options.launchCommands?.length) recipeFromLaunchCommands(options.launchCommands, []);
  const read: FileRuns[] = [];
  const problems: string[] = [];
  for (const file of files) {
    try {
      read.push({ file, runs: readRunsFromText(readText(file), file, options) });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems.push(error.message);
    }
  }
  return { read, problems };
}
