/**
 * The dependency rules of src/, checked by test/architecture.test.ts and `npm run depcruise`.
 * The layer rules are generated from scripts/architecture-layers.cjs (the layers, bottom to top),
 * which docs/ARCHITECTURE.md's table of layers is written from too (`npm run architecture:doc`).
 *
 * Test files (`*.test.ts`) are part of their subsystem but exempt from the layer and front-door
 * rules: they may reach into internals and into lower-level helpers of any subsystem. They still
 * take part in cycles and may import nothing of test/, bench/ or scripts/ but test/helpers/.
 */
const { LAYERS, NO_FRONT_DOOR } = require('./scripts/architecture-layers.cjs');

/** A regular-expression alternation of folder names, in a group. */
const anyOf = (names) => `(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;

const TEST_FILE = '\\.test\\.ts$';
const SUBSYSTEMS = LAYERS.flat();

/** For each subsystem, the rules that keep it off the layers above it and off its peers. */
const layerRules = LAYERS.flatMap((layer, at) => {
  const above = LAYERS.slice(at + 1).flat();
  const below = LAYERS.slice(0, at).flat();
  const allowed = below.length === 0 ? 'nothing outside itself' : below.join(', ');
  return layer.flatMap((subsystem) => {
    const peers = layer.filter((s) => s !== subsystem);
    const from = { path: `^src/${anyOf([subsystem])}/`, pathNot: TEST_FILE };
    const rules = [];
    if (above.length > 0) {
      rules.push({
        name: 'layer-upward',
        severity: 'error',
        comment:
          `${subsystem} sits on layer ${at + 1} and may import only from itself and from lower ` +
          `layers (${allowed}); importing a higher layer (${above.join(', ')}) turns the layering ` +
          'upside down and opens the way to cycles between subsystems.',
        from,
        to: { path: `^src/${anyOf(above)}/` },
      });
    }
    if (peers.length > 0) {
      rules.push({
        name: 'layer-peer',
        severity: 'error',
        comment:
          `${subsystem} and ${peers.join(', ')} are peers on layer ${at + 1}: neither imports the ` +
          'other, so each can change without the other; what both need belongs on a lower layer.',
        from,
        to: { path: `^src/${anyOf(peers)}/` },
      });
    }
    return rules;
  });
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle ties its modules together: none of them can be read, tested, loaded or moved ' +
        'without the others, and module-evaluation order starts to matter. Type-only imports and ' +
        'dynamic import() count too.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'unlayered-subsystem',
      severity: 'error',
      comment:
        'Every top-level folder of src/ is a subsystem placed on a layer in ' +
        'scripts/architecture-layers.cjs; a folder (or file) outside the layers has no rules.',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: `^src/${anyOf(SUBSYSTEMS)}/` },
    },
    {
      name: 'unlayered-subsystem',
      severity: 'error',
      comment:
        'Every top-level folder of src/ is a subsystem placed on a layer in ' +
        'scripts/architecture-layers.cjs; a folder (or file) outside the layers has no rules.',
      from: { path: '^src/', pathNot: `^src/${anyOf(SUBSYSTEMS)}/` },
      to: {},
    },
    {
      name: 'front-door',
      severity: 'error',
      comment:
        "Subsystems meet at their front doors: a module imports another subsystem only through " +
        "that subsystem's index.ts, so what a subsystem offers is read in one file and its insides " +
        `can move freely. ${NO_FRONT_DOOR.join(', ')} (the shared kernel) has no door. Tests are exempt.`,
      from: { path: '^src/([^/]+)/', pathNot: TEST_FILE },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/$1/', `^src/${anyOf(NO_FRONT_DOOR)}/`, '^src/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      comment:
        'The package ships src/: its modules may not import the integration tests and their helpers ' +
        '(test/), the benchmark scripts (bench/) or the repository scripts (scripts/).',
      from: { path: '^src/', pathNot: TEST_FILE },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'unit-tests-use-test-helpers-only',
      severity: 'error',
      comment:
        'Test support lives in test/helpers/, so nothing under src/ exists only for tests: a unit ' +
        'test under src/ may import those helpers, but not the integration tests themselves, the ' +
        'benchmark scripts (bench/) or the repository scripts (scripts/).',
      from: { path: TEST_FILE },
      to: { path: '^(test|bench|scripts)/', pathNot: '^test/helpers/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import that does not resolve (a typo, a moved or deleted file, a package not in ' +
        'package.json) fails at run time, perhaps only on the path that loads it.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    moduleSystems: ['es6'],
    // Type-only imports are dependencies too: `import type` ties the modules as much for a reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Resolution as Node's for ES modules (packages through their `exports`). NodeNext specifiers
    // end in .js: dependency-cruiser maps `./x.js` to `./x.ts` when only the .ts exists. JSON
    // modules (`with { type: 'json' }`) resolve as themselves.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
      mainFields: ['main'],
      extensions: ['.ts', '.js', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      // Readable node names (src_bench, not 1B), so the graph in docs/ARCHITECTURE.md diffs well.
      mermaid: { minify: false },
    },
  },
};
