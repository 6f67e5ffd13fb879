#!/usr/bin/env node
// Builds the CLI (integration tests spawn the real bin) and runs every test file with node's own
// test runner: first the files that compare measured timings with a server's truth, one at a time
// so no other test competes for the 2 cores, then everything else two files at a time. Ends with
// the plain `N passed, N failed` line CI reads.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const filters = args.filter((a) => !a.startsWith('--'));

/** Test files whose assertions compare client-measured times with a server's recorded truth. */
const TIMING_SENSITIVE = [
  'test/bench-cli.test.ts',
  'test/predict-agreement.test.ts',
  'test/sweep-agreement.test.ts',
  'test/scale-cli.test.ts',
  'test/scale-workers.test.ts',
  'test/wire-referee.test.ts',
  'test/bench-shards.test.ts',
];

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
const serial = files.filter((f) => TIMING_SENSITIVE.includes(f));
const parallel = files.filter((f) => !TIMING_SENSITIVE.includes(f));

const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('build failed: fix the TypeScript errors above, then run the tests again');
  process.exit(1);
}

/**
 * The failed tests of a TAP stream, each as its name and the first lines of its error: repeated
 * after the summary because CI keeps only the closing lines of a long run.
 */
function failedTests(tap) {
  const lines = tap.split('\n');
  const failures = [];
  lines.forEach((line, at) => {
    const failed = /^(\s*)not ok \d+ - (.*)$/.exec(line);
    if (!failed) return;
    const end = lines.indexOf(`${failed[1]}  ...`, at);
    const details = lines.slice(at + 1, end === -1 ? at + 40 : end);
    if (details.some((d) => d.includes("failureType: 'subtestsFailed'"))) return;
    const errorAt = details.findIndex((d) => /^\s*error: /.test(d));
    const errorEnd = details.findIndex((d, i) => i > errorAt && /^\s*[a-zA-Z]+: /.test(d));
    // Enough lines for an assertion's diff, whose first lines are only its header.
    const error = errorAt === -1 ? [] : details.slice(errorAt, errorEnd === -1 ? errorAt + 24 : Math.min(errorEnd, errorAt + 24));
    const stackAt = details.findIndex((d) => /^\s*stack: /.test(d));
    const where = stackAt === -1 ? [] : details.slice(stackAt + 1, stackAt + 2);
    const shown = [...error, ...where].map((d) => `  ${d.trim()}`);
    failures.push([`not ok: ${failed[2]}`, ...shown].join('\n'));
  });
  return failures;
}

/** Runs one batch of files; resolves to its pass/fail counts read from the TAP summary, and its failures. */
function runBatch(batch, concurrency) {
  return new Promise((resolve) => {
    if (batch.length === 0) return resolve({ passed: 0, failed: 0, code: 0, failures: [] });
    const child = spawn(
      process.execPath,
      // Every test process gets the isolated Hugging Face settings: no hub, no developer's cache.
      ['--import', 'tsx', '--import', './test/helpers/isolate-hub.ts', '--test', '--test-reporter=tap', `--test-concurrency=${concurrency}`, ...batch],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SERVEBENCH_TEST: '1' } },
    );
    let tap = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tap += chunk.toString('utf8');
    });
    child.on('close', (code) => {
      const tail = tap.slice(-4096);
      const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tail)?.[1] ?? 0);
      resolve({ passed: count('pass'), failed: count('fail') + count('cancelled'), code: code ?? 1, failures: failedTests(tap) });
    });
  });
}

const first = await runBatch(serial, 1);
const second = await runBatch(parallel, 2);
const passed = first.passed + second.passed;
const failed = first.failed + second.failed;
for (const failure of [...first.failures, ...second.failures]) console.log(failure);
console.log(`${passed} passed, ${failed} failed`);
process.exit(first.code !== 0 || second.code !== 0 || failed > 0 ? 1 : 0);
