#!/usr/bin/env node
// Builds the CLI (integration tests spawn the real bin) and runs every test file with
// node's own test runner, so CI can read its closing summary lines.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const filters = args.filter((a) => !a.startsWith('--'));

function collect(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...collect(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const roots = unitOnly ? ['src'] : ['src', 'test'];
const files = roots
  .flatMap((r) => collect(join(root, r)))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort();

const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('build failed: fix the TypeScript errors above, then run the tests again');
  process.exit(1);
}

const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SERVEBENCH_TEST: '1' } },
);
process.exit(run.status ?? 1);
