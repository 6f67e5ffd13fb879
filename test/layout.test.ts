/**
 * Rules of the source tree that a reader relies on without checking: file names are kebab-case,
 * and test support lives under test/, so nothing under src/ exists only for the tests (the
 * package ships src/, and a module there is read as part of the product).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './helpers/cli.js';

/** Every file under `dir`, as paths relative to the repository root. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(REPO_ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(REPO_ROOT, path)).isDirectory()) found.push(...filesUnder(path));
    else found.push(path);
  }
  return found;
}

/** Test code: test files anywhere, and everything under test/ (its helpers included). */
const isTest = (path: string): boolean => path.endsWith('.test.ts') || path.startsWith('test/');

/** Relative module specifiers in static imports, re-exports and `import('...')` calls. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The repository-relative `.ts` path a relative specifier of `importer` resolves to. */
function resolveImport(importer: string, specifier: string): string {
  return relative(REPO_ROOT, resolve(REPO_ROOT, dirname(importer), specifier)).replace(/\.js$/, '.ts');
}

/** For each module, the files that import it. */
function importersByModule(files: readonly string[]): Map<string, string[]> {
  const importers = new Map<string, string[]>();
  for (const file of files.filter((f) => f.endsWith('.ts'))) {
    for (const match of readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolveImport(file, match[1]!);
      importers.set(target, [...(importers.get(target) ?? []), file]);
    }
  }
  return importers;
}

test('every file and folder under src/ and test/ has a kebab-case name (no upper-case letters)', () => {
  const offending = [...filesUnder('src'), ...filesUnder('test')].filter((path) => /[A-Z]/.test(path));
  assert.deepEqual(offending, []);
});

test('no module under src/ is imported only by tests: test support lives under test/', () => {
  const importers = importersByModule([...filesUnder('src'), ...filesUnder('test'), ...filesUnder('bench')]);
  const testOnly = filesUnder('src')
    .filter((path) => path.endsWith('.ts') && !isTest(path))
    .filter((path) => {
      const users = importers.get(path) ?? [];
      return users.length > 0 && users.every(isTest);
    });
  assert.deepEqual(testOnly, []);
});
