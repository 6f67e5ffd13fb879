/**
 * Splits a console log or recipe document into runs. A run is a result block; it takes the
 * arguments (`Namespace(...)` dump or bench command), deployment (launch commands) and heading
 * that precede it. A heading starts a new recipe: commands do not leak across recipes unless the
 * heading says "same deployment" / "same benchmark".
 */
import { findResultBlocks, type LocatedBlock } from '../../bench/output/parse-block.js';
import type { RecipeConfig } from '../types.js';
import { parseBenchCommand } from './bench-command.js';
import { checkAgainstArgs, checkBlockArithmetic } from './consistency.js';
import { parseHeading, type HeadingFacts } from './heading.js';
import { parseDeploymentInstances } from './launch-config.js';
import { parseNamespace } from './python-repr.js';
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
}

interface Heading {
  line: number;
  text: string;
  facts: HeadingFacts;
}

const MARKDOWN_HEADING = /^\s*(#{1,6})\s+(.+?)\s*#*\s*$/;
const PACKAGE_LINE = /^([A-Za-z][\w.-]*)\s{2,}(\d[\w.+-]*)\s*$/;
const ENV_FACT = /^(Image|CANN|CUDA|Driver|Docker image)\s*:\s*(.+?)\s*$/i;

/**
 * Finds recipe headings: markdown `##` and deeper, a `#` title only before the first command or block
 * (later `#` lines are shell comments), and plain lines that name a model and hardware or card count.
 */
function findHeadings(lines: readonly string[], firstContentLine: number, excluded: ReadonlySet<number>): Heading[] {
  const headings: Heading[] = [];
  lines.forEach((line, i) => {
    if (excluded.has(i)) return;
    const md = MARKDOWN_HEADING.exec(line);
    if (md) {
      if (md[1]!.length === 1 && i >= firstContentLine) return;
      headings.push({ line: i, text: md[2]!, facts: parseHeading(md[2]!) });
      return;
    }
    const text = line.trim();
    if (text.length === 0 || text.length > 120 || /[:=]$|^[-=]|\\$/.test(text)) return;
    const facts = parseHeading(text);
    if (facts.model && facts.hardware && (facts.cards !== undefined || facts.deployMode || facts.datasetLabel)) {
      headings.push({ line: i, text, facts });
    }
  });
  return headings;
}

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
  | { kind: 'block'; line: number; block: LocatedBlock };

/** Every run in a document, in order. Pure. */
export function extractRuns(text: string): ExtractedRun[] {
  const lines = text.split(/\r?\n/);
  const blocks = findResultBlocks(text);
  const inBlock = new Set<number>();
  for (const b of blocks) for (let i = b.startLine; i < b.endLine; i++) inBlock.add(i);
  const commands = findCommands(lines, { skip: inBlock });
  const firstContent = Math.min(commands[0]?.startLine ?? Infinity, blocks[0]?.startLine ?? Infinity);
  const commandLines = new Set(commands.flatMap((c) => Array.from({ length: c.endLine - c.startLine }, (_, k) => c.startLine + k)));
  const headings = findHeadings(lines, firstContent, new Set([...inBlock, ...commandLines]));

  const events: Event[] = [
    ...headings.map((h) => ({ kind: 'heading' as const, line: h.line, heading: h })),
    ...commands.map((c) => ({ kind: 'command' as const, line: c.startLine, command: c })),
    ...blocks.map((b) => ({ kind: 'block' as const, line: b.startLine, block: b })),
  ];
  lines.forEach((line, i) => {
    if (!inBlock.has(i) && /^\s*(benchmark_args=)?Namespace\(/.test(line)) events.push({ kind: 'namespace', line: i, text: line });
  });
  events.sort((a, b) => a.line - b.line);

  const runs: ExtractedRun[] = [];
  let heading: Heading | null = null;
  let sectionStart = 0;
  let deployment = null as DeploymentState | null;
  let deploymentClosed = false;
  let bench = null as BenchState | null;
  let namespace: { args: Record<string, unknown> | null; warnings: string[] } | null = null;
  // Environment facts accumulate through the file (read once, not once per run).
  const environment: Record<string, string> = {};
  let environmentReadTo = 0;

  for (const event of events) {
    if (event.kind === 'heading') {
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
    } else if (event.kind === 'namespace') {
      try {
        namespace = { args: parseNamespace(event.text), warnings: [] };
      } catch (error) {
        namespace = { args: null, warnings: [`benchmark arguments line ${event.line + 1} unreadable: ${(error as Error).message}`] };
      }
    } else {
      readEnvironment(lines, environmentReadTo, event.block.startLine, environment);
      environmentReadTo = event.block.startLine;
      runs.push(makeRun(lines, sectionStart, event.block, heading, deployment, bench, namespace, { ...environment }));
      sectionStart = event.block.endLine;
      deploymentClosed = true;
      namespace = null;
    }
  }
  return runs;
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
): ExtractedRun {
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
