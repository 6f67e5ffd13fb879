/**
 * The layering of src/ (docs/ARCHITECTURE.md, "Layers"): dependency-cruiser checks the imports of
 * src/ against .dependency-cruiser.cjs (layers, peers, front doors, no cycles, no test code, every
 * import resolves), and the doc's generated section matches the layers and imports as they are now.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import type { ICruiseResult, IViolation } from 'dependency-cruiser';
import { currentSection, cruiseSrc, DOC_PATH, layersSection } from '../scripts/architecture-doc.js';
import { REPO_ROOT } from './helpers/cli.js';

/** One cruise of src/ serves both the rules and the doc. */
let cruised: Promise<ICruiseResult> | undefined;
const srcCruise = (): Promise<ICruiseResult> => (cruised ??= cruiseSrc());

/** A violation as one line: the rule, the dependency, and the cycle it closes. */
function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle?.length ? ` (cycle: ${[violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')})` : '';
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`;
}

const violationsOf = (result: ICruiseResult): string[] => result.summary.violations.map(describeViolation).sort();

test('the imports of src/ keep the dependency rules (.dependency-cruiser.cjs: layers, front doors, no cycles)', async () => {
  const result = await srcCruise();
  assert.ok(result.summary.totalCruised > 100, `dependency-cruiser found only ${result.summary.totalCruised} modules under src/`);
  const violations = violationsOf(result);
  assert.equal(
    violations.length,
    0,
    [
      `${violations.length} dependency rule violation(s) in src/ (rules and why: .dependency-cruiser.cjs; \`npm run depcruise\` explains each):`,
      ...violations.map((line) => `  ${line}`),
    ].join('\n'),
  );
});

/** The files of a small tree laid out like src/ whose imports break each rule once. */
const BREAKING_TREE: Record<string, string> = {
  'src/core/up.ts': "import type { B } from '../bench/index.js';\nexport type U = B;\n",
  'src/bench/index.ts': "export type B = number;\nexport { deep } from './deep.js';\n",
  'src/bench/deep.ts': 'export const deep = 1;\n',
  'src/bench/peer.ts': "export const peer = async () => (await import('../sim/index.js')).s;\n",
  'src/sim/index.ts': "import { a } from './cycle-b.js';\nexport const s = a;\n",
  'src/sim/cycle-b.ts': "import type { C } from './cycle-c.js';\nexport const a: C = 1;\n",
  'src/sim/cycle-c.ts': "import { a } from './cycle-b.js';\nexport type C = number;\nexport const c = a;\n",
  'src/cli/deep.ts': "import { deep } from '../bench/deep.js';\nimport { e } from '../core/e.js';\nexport const d = [deep, e];\n",
  'src/cli/lost.ts': "import { gone } from './gone.js';\nexport const l = gone;\n",
  'src/cli/helper.ts': "import { h } from '../../test/helper.js';\nexport const t = h;\n",
  'src/cli/unlayered.ts': "import { n } from '../nowhere/n.js';\nexport const u = n;\n",
  'src/nowhere/n.ts': "import { e } from '../core/e.js';\nexport const n = e;\n",
  'src/core/e.ts': 'export const e = 1;\n',
  'src/core/reach.test.ts': "import { deep } from '../bench/deep.js';\nimport { s } from '../sim/index.js';\nexport const r = [deep, s];\n",
  'src/core/reach-tests.test.ts': "import { h } from '../../test/helper.js';\nexport const b = h;\n",
  'src/core/use-helper.test.ts': "import { g } from '../../test/helpers/g.js';\nexport const u = g;\n",
  'test/helper.ts': 'export const h = 1;\n',
  'test/helpers/g.ts': 'export const g = 1;\n',
};

test('the rules catch each kind of violation, and let test files reach across layers', async () => {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    for (const [path, text] of Object.entries(BREAKING_TREE)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    copyFileSync(join(REPO_ROOT, 'tsconfig.json'), join(root, 'tsconfig.json'));
    const all = violationsOf(await cruiseSrc(root));
    const violations = all.filter((line) => !line.startsWith('no-circular'));
    const cycles = all.filter((line) => line.startsWith('no-circular'));
    assert.deepEqual(violations, [
      'front-door: src/cli/deep.ts → src/bench/deep.ts',
      'front-door: src/cli/unlayered.ts → src/nowhere/n.ts',
      'layer-peer: src/bench/peer.ts → src/sim/index.ts',
      'layer-upward: src/core/up.ts → src/bench/index.ts',
      'no-test-code-in-src: src/cli/helper.ts → test/helper.ts',
      'not-to-unresolvable: src/cli/lost.ts → ./gone.js',
      'unit-tests-use-test-helpers-only: src/core/reach-tests.test.ts → test/helper.ts',
      'unlayered-subsystem: src/cli/unlayered.ts → src/nowhere/n.ts',
      'unlayered-subsystem: src/nowhere/n.ts → src/core/e.ts',
    ]);
    assert.ok(cycles.length > 0 && cycles.every((line) => line.includes('src/sim/cycle-b.ts')), cycles.join('\n'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("docs/ARCHITECTURE.md's layers section is what `npm run architecture:doc` writes now", async () => {
  const current = currentSection(readFileSync(DOC_PATH, 'utf8'));
  const wanted = await layersSection(await srcCruise());
  const currentLines = current.split('\n');
  const wantedLines = wanted.split('\n');
  const lines = Math.max(currentLines.length, wantedLines.length);
  const at = Array.from({ length: lines }, (_, i) => i).find((i) => currentLines[i] !== wantedLines[i]) ?? 0;
  assert.ok(
    current === wanted,
    'docs/ARCHITECTURE.md: the layers section is out of date (the layers or the imports between subsystems ' +
      `changed): run \`npm run architecture:doc\`. First difference, line ${at + 1} of the section:\n` +
      `  doc:       ${currentLines[at] ?? '(end)'}\n  generated: ${wantedLines[at] ?? '(end)'}`,
  );
});

/**
 * bench_serving's argparse Namespace is the command line's shape: the CLI parses into it and bench
 * resolves it into the run config, which every other subsystem reads instead.
 */
test('no module outside src/cli/ and src/bench/ names BenchArgs (the parsed Namespace)', () => {
  const naming = readdirSync(join(REPO_ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !/^(cli|bench)\//.test(path))
    .filter((path) => /\bBenchArgs\b/.test(readFileSync(join(REPO_ROOT, 'src', path), 'utf8')));
  assert.deepEqual(naming, []);
});
