/**
 * Where the published reference logs live: `shared/reference/logs` beside the repository (as on
 * developer machines and in CI's clean clone), or `SERVEBENCH_REFERENCE_DIR` when set.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export const REFERENCE_LOGS_DIR =
  process.env.SERVEBENCH_REFERENCE_DIR ?? join(repoRoot, '..', 'shared', 'reference', 'logs');

/** Absolute path of one reference log by file name. */
export function referenceLogPath(name: string): string {
  return join(REFERENCE_LOGS_DIR, name);
}

/** Text of one reference log. */
export function readReferenceLog(name: string): string {
  return readFileSync(referenceLogPath(name), 'utf8');
}

/** File names of every reference log, sorted. */
export function listReferenceLogs(): string[] {
  return readdirSync(REFERENCE_LOGS_DIR).filter((n) => n.endsWith('.log')).sort();
}
