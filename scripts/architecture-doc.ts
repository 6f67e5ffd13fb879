/**
 * Writes docs/ARCHITECTURE.md's section on the layers of src/, between the markers
 * `<!-- layers:begin -->` and `<!-- layers:end -->`: a table of the layers, bottom to top, from
 * scripts/architecture-layers.cjs (the list .dependency-cruiser.cjs builds its rules from), and
 * which subsystem imports which, drawn by dependency-cruiser from the imports of src/ as a mermaid
 * graph. test/architecture.test.ts fails when the section differs from what this writes now.
 *
 *   npm run architecture:doc              rewrite the section in place
 *   npm run architecture:doc -- --check   exit 1 when it is out of date
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, format, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DOC_PATH = join(ROOT, 'docs', 'ARCHITECTURE.md');
export const BEGIN_MARKER = '<!-- layers:begin -->';
export const END_MARKER = '<!-- layers:end -->';

const { LAYERS, NO_FRONT_DOOR } = createRequire(import.meta.url)('./architecture-layers.cjs') as {
  LAYERS: readonly (readonly string[])[];
  NO_FRONT_DOOR: readonly string[];
};

/**
 * What each subsystem is, for the subsystems whose index.ts does not say it in its first sentence
 * (most open with the same "front door" line) or that have no index.ts.
 */
const DESCRIPTIONS: Record<string, string> = {
  core: 'the shared kernel: Python-compatible formatting, numpy-equal statistics, seeded RNGs, the error family, redaction, worker start',
  tokenizer: 'the Tokenizer interface; bundled Qwen / DeepSeek / Llama 3 / gpt-oss vocabularies, local HF folders, chat templates',
  deployment: 'what a deployment is: hardware and model catalogs, SGLang launch flags, its instances and the facts derived from them',
  bench: 'the drop-in bench_serving: datasets, backends, HTTP transport, runner, metrics, output',
  sim: 'the simulated SGLang engine: step-time model, continuous-batching scheduler, HTTP server, truth mode',
  catalog: 'the SQLite store of runs: ingest of logs, JSONL and recipes, queries, best-practice tables',
  predict: 'the predict pipeline: a deployment and bench flags → a workload run in virtual time, with its expected error',
  calibration: "the published runs as cases, the fit of the model's factors, cross-validation",
  plots: 'chart options from runs and sweeps; SVG via ECharts SSR, PNG via resvg',
  sweep: 'load series, knee search, SLOs and goodput, per-point records; each point predicted, simulated or measured',
  eval: '`servebench eval`: task data → few-shot prompts, answers read and scored per subject',
  'config-search': '`sweep --search-configs`: the configuration space, the candidates predicted, ranked and reported',
  dashboard: 'the local web app over the catalog: runs, run detail and plots, compare, sweeps, best-practice table',
  cli: 'the `servebench` command: main.ts dispatches, commands/ wire the subsystems',
};

/** A first sentence that says only that index.ts is the front door says nothing about the subsystem. */
const SAYS_NOTHING = /front door: what other subsystems may import from it|^public entry of/i;

/** Longer than this, a first sentence is a paragraph, not a line of the table. */
const MAX_SUMMARY = 120;

/** The first sentence of the first JSDoc comment of src/<subsystem>/index.ts, if it has one. */
function indexSummary(subsystem: string): string | null {
  const index = join(ROOT, 'src', subsystem, 'index.ts');
  if (!existsSync(index)) return null;
  const comment = /^\s*\/\*\*([\s\S]*?)\*\//.exec(readFileSync(index, 'utf8'));
  if (!comment) return null;
  const text = comment[1]!
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('@'))
    .join(' ');
  const sentence = /^(.*?)\.(?:\s|$)/.exec(text)?.[1] ?? text;
  return sentence === '' || sentence.length > MAX_SUMMARY || SAYS_NOTHING.test(sentence) ? null : sentence;
}

/** One line on what a subsystem is: its index.ts's own first sentence, else the table above. */
export function describe(subsystem: string): string {
  const described = indexSummary(subsystem) ?? DESCRIPTIONS[subsystem] ?? '';
  const planned = existsSync(join(ROOT, 'src', subsystem)) ? '' : ' (no folder in src/ yet)';
  const line = `${described.charAt(0).toUpperCase()}${described.slice(1)}${planned}`;
  return line.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** The options of .dependency-cruiser.cjs, for a cruise of the src/ of `root`. */
async function cruiseOptions(root: string): Promise<ICruiseOptions> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  // The config names tsconfig.json relative to the working directory; the cruise may run from anywhere.
  return { ...options, baseDir: root, tsConfig: { fileName: join(root, 'tsconfig.json') } };
}

/**
 * dependency-cruiser's view of src/ with the rules of .dependency-cruiser.cjs checked: of this
 * repository, or of another tree laid out the same way (`root` with its own tsconfig.json).
 */
export async function cruiseSrc(root: string = ROOT): Promise<ICruiseResult> {
  const tsConfig = extractTSConfig(join(root, 'tsconfig.json'));
  const { output } = await cruise(['src'], await cruiseOptions(root), {}, { tsConfig });
  if (typeof output === 'string') throw new Error(`dependency-cruiser returned text, not a result:\n${output}`);
  return output;
}

/**
 * Which subsystem imports which (test files left out: they may reach anywhere), as dependency-cruiser
 * draws it: every module of src/<subsystem>/ collapsed into one node. Its edges are sorted so the
 * graph changes only when the dependencies do.
 */
async function subsystemGraph(result: ICruiseResult): Promise<string> {
  const { output } = await format(result, {
    outputType: 'mermaid',
    collapse: '^src/[^/]+',
    includeOnly: '^src/',
    exclude: '\\.test\\.ts$',
  });
  // Top down, as the table reads from the bottom up: cli above, core below.
  const lines = String(output).trimEnd().replace(/^flowchart LR$/m, 'flowchart TD').split('\n');
  const isEdge = (line: string): boolean => line.includes('-->');
  const edges = lines.filter(isEdge).sort();
  return [...lines.filter((line) => !isEdge(line)), ...edges].join('\n');
}

/** The generated section, markers included, for the cruise `result` of src/. */
export async function layersSection(result: ICruiseResult): Promise<string> {
  const rows = LAYERS.flatMap((layer, at) =>
    layer.map((subsystem) => `| ${at + 1} | \`${subsystem}\` | ${describe(subsystem)} |`),
  );
  return [
    BEGIN_MARKER,
    '<!-- Generated by `npm run architecture:doc` from scripts/architecture-layers.cjs and the imports of src/: do not edit by hand. -->',
    '',
    'The subsystems of src/ sit in layers, bottom to top. A module imports only from its own subsystem',
    'and from subsystems on lower layers; subsystems on one layer are peers and do not import each',
    "other. Across subsystems a module imports only the other subsystem's front door, its index.ts",
    `(${NO_FRONT_DOOR.map((s) => `${s}/`).join(', ')}, the shared kernel, has none). Nothing in src/ forms an import cycle (type-only`,
    'imports included), and no module of src/ imports test/, bench/ or scripts/. Test files (`*.test.ts`)',
    "may reach into any subsystem's insides and across layers, and use the helpers in test/helpers/.",
    'dependency-cruiser checks all of it: the rules are',
    '.dependency-cruiser.cjs, generated from the layers in scripts/architecture-layers.cjs;',
    'test/architecture.test.ts runs them, and `npm run depcruise` lists what breaks them.',
    '',
    '| Layer | Subsystem | What it is |',
    '|---:|---|---|',
    ...rows,
    '',
    'Which subsystem imports which (test files left out), as dependency-cruiser reads the imports of src/:',
    '',
    '```mermaid',
    await subsystemGraph(result),
    '```',
    END_MARKER,
  ].join('\n');
}

/** The section of `doc` between the markers, markers included. */
export function currentSection(doc: string): string {
  const begin = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (begin === -1 || end === -1 || end < begin) {
    throw new Error(`${DOC_PATH} has no ${BEGIN_MARKER} … ${END_MARKER} section: add the two markers where the layers go`);
  }
  return doc.slice(begin, end + END_MARKER.length);
}

async function main(): Promise<void> {
  const doc = readFileSync(DOC_PATH, 'utf8');
  const current = currentSection(doc);
  const wanted = await layersSection(await cruiseSrc());
  if (current === wanted) {
    console.log('docs/ARCHITECTURE.md: the layers section is up to date');
    return;
  }
  if (process.argv.includes('--check')) {
    console.error('docs/ARCHITECTURE.md: the layers section is out of date; run `npm run architecture:doc`');
    process.exitCode = 1;
    return;
  }
  writeFileSync(DOC_PATH, doc.replace(current, () => wanted));
  console.log('docs/ARCHITECTURE.md: the layers section rewritten');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
