/**
 * The training set of the performance model: the published runs in `shared/reference/published`
 * (beside the repository) and the reference logs, as cases. Reads files; the parsing is cases.ts'.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UserError } from '../core/errors.js';
import logCases from './reference-log-cases.json' with { type: 'json' };
import { parseCaseFile, type PredictionCase } from './cases.js';

/** Where the published runs live, relative to the repository root. */
export const PUBLISHED_DIR = join('..', 'shared', 'reference', 'published');

/** The reference logs' cases (shipped with the code). */
export function referenceLogCases(): PredictionCase[] {
  return parseCaseFile(logCases, 'src/calibration/reference-log-cases.json');
}

/** Cases of JSON case files (paths as given; messages name them relative to `root`). */
export function loadCaseFiles(files: readonly string[], root: string): PredictionCase[] {
  return files.flatMap((file) => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UserError(`cannot read case file ${file}: ${(error as Error).message.split('\n')[0]}; pass a JSON file in the format of ${PUBLISHED_DIR}`);
    }
    return parseCaseFile(json, relative(root, file));
  });
}

/** Every training case: the published files (sorted by name), then the reference logs. */
export function trainingCases(root: string): PredictionCase[] {
  const dir = join(root, PUBLISHED_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch {
    throw new UserError(`no published runs at ${dir}: the training set lives in shared/reference/published beside the repository`);
  }
  return [...loadCaseFiles(names.map((name) => join(dir, name)), root), ...referenceLogCases()];
}
