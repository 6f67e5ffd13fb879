/**
 * Where the JSONL record goes (spec §7.1) and the append itself: bench_serving always appends
 * one line, to `--output-file` or to a default name in the working directory.
 */
import { appendFileSync, closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError, UserError } from '../../core/errors.js';
import { pythonJsonDumps } from '../../core/pyjson.js';
import type { PyValue } from '../../core/pyrepr.js';
import type { BenchRunConfig } from '../run-config.js';

/** `MMDD` of the local date, as `datetime.now().strftime("%m%d")`. */
function monthDay(date: Date): string {
  return `${String(date.getMonth() + 1).padStart(2, '0')}${String(date.getDate()).padStart(2, '0')}`;
}

/**
 * bench_serving's default result file name: `{backend}_{MMDD}_{n}_{in}_{out}[_{k}imgs_{res}].jsonl`
 * for the random and image datasets, `{backend}_{MMDD}_{n}_{dataset}.jsonl` otherwise.
 */
export function defaultOutputFileName(config: Pick<BenchRunConfig, 'backend' | 'dataset'>, date: Date): string {
  const { dataset } = config;
  const prefix = `${config.backend}_${monthDay(date)}_${dataset.numPrompts}`;
  const lengths = `${dataset.random.inputLen}_${dataset.random.outputLen}`;
  if (dataset.name === 'image') {
    return `${prefix}_${lengths}_${dataset.image.count}imgs_${dataset.image.resolution}.jsonl`;
  }
  if (dataset.name.startsWith('random')) return `${prefix}_${lengths}.jsonl`;
  return `${prefix}_${dataset.name}.jsonl`;
}

/** Appends `record` as one `json.dumps` line; a write failure is a one-line UserError naming the file. */
export function appendJsonl(path: string, record: PyValue): void {
  const line = pythonJsonDumps(record) + '\n';
  try {
    appendFileSync(path, line, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UserError(`cannot append the result to ${path} (${reason}); pass a writable --output-file`);
  }
}

/** Why `path` cannot take the record, and what to do about it. */
function whyUnwritable(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const folder = dirname(path);
  switch (code) {
    case 'EISDIR':
      return `it is a directory; pass a file path such as --output-file ${join(path, 'results.jsonl')}`;
    case 'ENOENT':
      if (existsSync(folder)) return `no file can be created in ${folder}; pass --output-file in a folder you can write to`;
      return `the folder ${folder} does not exist; create it (mkdir -p ${folder}) or pass --output-file in an existing folder`;
    case 'ENOTDIR':
      return `${folder} is not a folder; pass --output-file in an existing folder`;
    case 'EACCES':
    case 'EPERM':
      return 'permission denied; pass --output-file in a folder you can write to';
    case 'EROFS':
      return 'the file system is read-only; pass --output-file on a writable disk';
    default:
      return `${code ?? (error as Error).message}; pass a writable --output-file`;
  }
}

/**
 * Checks before the run that `path` can take the record, by opening it for appending (and removing
 * it again when it did not exist): that answers for a missing folder, a directory, permissions and
 * a read-only disk at once. A usage error (exit 2) names the path and the fix.
 */
export function checkOutputFile(path: string): void {
  const existed = existsSync(path);
  try {
    closeSync(openSync(path, 'a'));
  } catch (error) {
    throw new UsageError(`cannot write the results to ${path}: ${whyUnwritable(path, error)}`);
  }
  if (!existed) rmSync(path);
}
