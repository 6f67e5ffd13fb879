/**
 * Splits a console log or recipe document into runs and recipe sections. A run is a result
 * block; it takes the arguments (`Namespace(...)` dump or bench command), deployment (launch
 * commands) and heading that precede it. A heading that states facts (model, hardware, cards,
 * deploy mode, workload) starts a new recipe: commands do not leak across recipes unless the
 * heading says "same deployment" / "same benchmark". A deeper heading that states none
 * ("Model Deployment", "Benchmark") is part of the recipe above it.
 *
 * A recipe section is kept even when no result block follows it: a page's summary table may
 * give its figures (summary-table.ts links them). A recipe without a launch command of its own
 * that says "Please turn to [another recipe](#anchor)" deploys as that (earlier) recipe.
 */
import { findResultBlocks, type LocatedBlock } from '../../bench/index.js';
import type { RecipeConfig } from '../types.js';
import { parseBenchCommand } from './bench-command.js';
import { checkAgainstArgs, checkBlockArithmetic } from './consistency.js';
import type { HeadingFacts } from './heading.js';
import { parseDeploymentInstances } from './launch-config.js';
import { parseNamespace } from './python-repr.js';
import { anchorOf, fencedLines, findHeadings, statesFacts, type Heading } from './recipe-headings.js';
import { findExports, type FoundCommand } from './shell-command.js';
import { findCommands } from './shell-script.js';

/** One run found in a document, before it becomes a catalog record. */
export interface ExtractedRun {
  /** The recipe heading, when the document has one. */
  title: string | null;
  heading: HeadingFacts | null;
  block: LocatedBlock;
  /** Namespace dump (resolved) or the bench command's stated options; null when the text has neither. */
  args: Record<string, unknown> | null;
  argsOrigin: 'namespace' | 'command' | null;
  recipe: RecipeConfig | null;
  environment: Record<string, string>;
  warnings: string[];
  /** The text the run was read from (its recipe or log section); its hash identifies the run. */
  text: string;
  /** Index of its recipe section in `ExtractedDocument.sections`; null before the first heading. */
  section: number | null;
}

/** A recipe of the document: its heading's facts and the deployment and benchmark it ends with. */
export interface RecipeSection {
  title: string;
  /** The `#anchor` a link to it uses, when its heading gives one. */
  anchor: string | null;
  facts: HeadingFacts;
  recipe: RecipeConfig | null;
  args: Record<string, unknown> | null;
  /** What could not be read of its commands (shell variables of unknown value, ...). */
  warnings: string[];
}

export interface ExtractedDocument {
  runs: ExtractedRun[];
  sections: RecipeSection[];
}

export interface DocumentOptions {
  /** Lines of tables: never headings, commands or fact lines. */
  tableLines?: ReadonlySet<number>;
}

const PACKAGE_LINE = /^([A-Za-z][\w.-]*)\s{2,}(\d[\w.+-]*)\s*$/;
/** `Please turn to [DeepSeek R1 Low Latency 20ms](#deepseek-r1-low-latency-20ms-1)` under a recipe's deployment. */
const DEPLOYMENT_REFERENCE = /\b(?:turn to|refer to|same deployment as)\b[^[]*\[[^\]]*\]\(#([^)\s]+)\)/i;
const ENV_FACT = /^(Image|CANN|CUDA|Driver|Docker image)\s*:\s*(.+?)\s*$/i;

interface DeploymentState {
  recipe: RecipeConfig;
  warnings: string[];
}

interface BenchState {
  args: Record<string, unknown>;
  warnings: string[];
}

type Event =
  | { kind: 'heading'; line: number; heading: Heading }
  | { kind: 'command'; line: number; command: FoundCommand }
  | { kind: 'namespace'; line: number; text: string }
  | { kind: 'reference'; line: number; anchor: string }
  | { kind: 'block'; line: number; block: LocatedBlock };

function lineRange(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, k) => start + k);
}

/** The headings that start a recipe; the others (deeper, stating nothing) belong to the recipe above. */
function recipeHeadings(headings: readonly Heading[]): Heading[] {
  const starts: Heading[] = [];
  for (const heading of headings) {
    const current = starts.at(-1);
    const facts = heading.facts;
    const isPart = current !== undefined && heading.level > current.level && !statesFacts(facts) && !facts.reusesDeployment && !facts.reusesBenchmark;
    if (!isPart) starts.push(heading);
  }
  return starts;
}

/** Every run and recipe section of a document, in order. Pure. */
export function extractDocument(text: string, options: DocumentOptions = {}): ExtractedDocument {
  const lines = text.split(/\r?\n/);
  const blocks = findResultBlocks(text);
  const inBlock = new Set<number>();
  for (const b of blocks) for (let i = b.startLine; i < b.endLine; i++) inBlock.add(i);
  const tableLines = options.tableLines ?? new Set<number>();
  const notScript = new Set([...inBlock, ...tableLines]);
  const unscoped = findCommands(lines, { skip: notScript });
  const firstContent = Math.min(unscoped[0]?.startLine ?? Infinity, blocks[0]?.startLine ?? Infinity);
  const commandLines = unscoped.flatMap((c) => lineRange(c.startLine, c.endLine));
  const headings = recipeHeadings(findHeadings(lines, firstContent, new Set([...notScript, ...commandLines, ...fencedLines(lines)])));
  // A recipe's script is its own: its variables do not carry into the next recipe.
  const commands = findCommands(lines, { skip: notScript, resets: new Set(headings.map((h) => h.line)) });

  const events: Event[] = [
    ...headings.map((h) => ({ kind: 'heading' as const, line: h.line, heading: h })),
    ...commands.map((c) => ({ kind: 'command' as const, line: c.startLine, command: c })),
    ...blocks.map((b) => ({ kind: 'block' as const, line: b.startLine, block: b })),
  ];
  lines.forEach((line, i) => {
    if (inBlock.has(i)) return;
    if (/^\s*(benchmark_args=)?Namespace\(/.test(line)) events.push({ kind: 'namespace', line: i, text: line });
    const reference = DEPLOYMENT_REFERENCE.exec(line);
    if (reference) events.push({ kind: 'reference', line: i, anchor: reference[1]!.toLowerCase() });
  });
  events.sort((a, b) => a.line - b.line);

  const runs: ExtractedRun[] = [];
  const sections: RecipeSection[] = [];
  let heading: Heading | null = null;
  let sectionStart = 0;
  let deployment = null as DeploymentState | null;
  let deploymentClosed = false;
  let bench = null as BenchState | null;
  let namespace: { args: Record<string, unknown> | null; warnings: string[] } | null = null;
  // Environment facts accumulate through the file (read once, not once per run).
  const environment: Record<string, string> = {};
  let environmentReadTo = 0;
  const closeSection = (): void => {
    if (!heading) return;
    sections.push({
      title: heading.text,
      anchor: heading.anchor,
      facts: heading.facts,
      recipe: deployment ? structuredClone(deployment.recipe) : null,
      args: bench ? { ...bench.args } : null,
      warnings: [...(deployment?.warnings ?? []), ...(bench?.warnings ?? [])],
    });
  };

  for (const event of events) {
    if (event.kind === 'heading') {
      closeSection();
      const previous = { deployment, bench };
      heading = event.heading;
      sectionStart = event.line;
      const facts = heading.facts;
      deployment = facts.reusesDeployment && previous.deployment
        ? { recipe: { ...previous.deployment.recipe, origin: 'previous recipe (same deployment)' }, warnings: [] }
        : null;
      bench = facts.reusesBenchmark && previous.bench ? reuseBench(previous.bench.args, facts.extraBenchArgs) : null;
      // A launch command under a "same deployment" heading describes a new deployment, not an addition.
      deploymentClosed = deployment !== null;
      namespace = null;
    } else if (event.kind === 'command') {
      const { command } = event;
      if (command.kind === 'bench') {
        bench = benchOf(command);
        deploymentClosed = true;
      } else {
        if (!deployment || deploymentClosed) {
          const env = findExports(lines, sectionStart, command.startLine);
          deployment = { recipe: { instances: [], env, origin: 'file' }, warnings: [] };
          deploymentClosed = false;
        }
        deployment.recipe.instances.push(...parseDeploymentInstances(command, deployment.warnings));
      }
    } else if (event.kind === 'reference') {
      const target = sections.find((section) => anchorOf(section) === event.anchor);
      if (!deployment && target?.recipe) {
        deployment = { recipe: { ...structuredClone(target.recipe), origin: `recipe "${target.title}" (the page refers to it)` }, warnings: [...target.warnings] };
        // A launch command after the reference describes a deployment of its own, not an addition.
        deploymentClosed = true;
      }
    } else if (event.kind === 'namespace') {
      try {
        namespace = { args: parseNamespace(event.text), warnings: [] };
      } catch (error) {
        namespace = { args: null, warnings: [`benchmark arguments line ${event.line + 1} unreadable: ${(error as Error).message}`] };
      }
    } else {
      readEnvironment(lines, environmentReadTo, event.block.startLine, environment);
      environmentReadTo = event.block.startLine;
      const section = heading ? sections.length : null;
      runs.push({ ...makeRun(lines, sectionStart, event.block, heading, deployment, bench, namespace, { ...environment }), section });
      sectionStart = event.block.endLine;
      deploymentClosed = true;
      namespace = null;
    }
  }
  closeSection();
  return { runs, sections };
}

/**
 * The arguments of a bench command. A loop that runs it with different values (a concurrency
 * sweep) leaves those options out: which run printed which result block is not known.
 */
function benchOf(command: FoundCommand): BenchState {
  const warnings: string[] = [];
  const runs = (command.runs ?? [command.args]).map((args) => parseBenchCommand(args, warnings));
  const args = runs[0]!;
  for (const option of Object.keys(args)) {
    const values = runs.map((r) => JSON.stringify(r[option]));
    if (new Set(values).size > 1) {
      delete args[option];
      warnings.push(`the bench command runs in a loop with ${option} ${values.join(', ')}; which run a result belongs to is unknown, so ${option} is left out`);
    }
  }
  return { args, warnings: [...new Set(warnings)] };
}

function reuseBench(args: Record<string, unknown>, extra: string[]): BenchState {
  const warnings: string[] = [];
  return { args: { ...args, ...parseBenchCommand(extra, warnings) }, warnings };
}

function makeRun(
  lines: readonly string[],
  sectionStart: number,
  block: LocatedBlock,
  heading: Heading | null,
  deployment: DeploymentState | null,
  bench: BenchState | null,
  namespace: { args: Record<string, unknown> | null; warnings: string[] } | null,
  environment: Record<string, string>,
): Omit<ExtractedRun, 'section'> {
  const warnings = [...block.warnings];
  const args = namespace?.args ?? bench?.args ?? null;
  const argsOrigin = namespace?.args ? 'namespace' : bench ? 'command' : null;
  warnings.push(...(namespace?.warnings ?? []), ...(argsOrigin === 'command' ? bench!.warnings : []), ...(deployment?.warnings ?? []));
  if (heading?.facts.reusesDeployment && !deployment) warnings.push(`heading says "same deployment" but no earlier recipe has a launch command`);
  if (heading?.facts.reusesBenchmark && !bench) warnings.push(`heading says "same benchmark" but no earlier recipe has a bench command`);
  warnings.push(...checkAgainstArgs(block.metrics, args, argsOrigin === 'command'), ...checkBlockArithmetic(block.metrics));
  const sectionLines = lines.slice(sectionStart, block.endLine);
  return {
    title: heading?.text ?? null,
    heading: heading?.facts ?? null,
    block,
    args,
    argsOrigin,
    recipe: deployment ? structuredClone(deployment.recipe) : null,
    environment,
    warnings,
    text: sectionLines.join('\n'),
  };
}

/** Adds the package versions (`sglang   0.5.6.post2`), image and driver facts of lines [from, to) to `env`. */
function readEnvironment(lines: readonly string[], from: number, to: number, env: Record<string, string>): void {
  for (let i = from; i < to; i++) {
    const pkg = PACKAGE_LINE.exec(lines[i]!);
    if (pkg) env[pkg[1]!] = pkg[2]!;
    const fact = ENV_FACT.exec(lines[i]!);
    if (fact) env[fact[1]!] = fact[2]!;
  }
}
