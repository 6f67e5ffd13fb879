/**
 * Finds the headings of a recipe document and what each states. A heading is a Markdown heading
 * (`##` and deeper; a `#` title only as the first heading, before any command or block, as other
 * `#` lines are shell comments; never inside a fenced code block), a plain line that names a model and hardware with cards, deploy mode or
 * workload, or a fact line naming the model (`Model: Deepseek R1`). The fact lines that follow a
 * heading (`Hardware: Atlas 800I A3 32Card`, `DataSets: 3.5K1.5K`, `TPOT: 50ms`) add to its facts.
 */
import { parseHeading, type HeadingFacts } from './heading.js';
import { readFactLine, type RowFacts } from './summary-columns.js';

export interface Heading {
  line: number;
  text: string;
  /** Markdown level (1 for `#` ... 6); 0 for a plain line. */
  level: number;
  facts: HeadingFacts;
  /** The anchor links reach it by: a `{#id}` the heading gives itself (an HTML page's id), else none. */
  anchor: string | null;
}

const MARKDOWN_HEADING = /^\s*(#{1,6})\s+(.+?)\s*#*\s*$/;
/** A heading's own anchor, written after it: `### Title {#title-id}`. */
const CUSTOM_ANCHOR = /\s*\{#([^}\s]+)\}$/;
const FENCE = /^\s*(```|~~~)/;

/** Lines inside fenced code blocks (the fences included): a `# comment` there is never a heading. */
export function fencedLines(lines: readonly string[]): Set<number> {
  const fenced = new Set<number>();
  let open: number | null = null;
  lines.forEach((line, i) => {
    if (!FENCE.test(line)) {
      if (open !== null) fenced.add(i);
      return;
    }
    fenced.add(i);
    open = open === null ? i : null;
  });
  return fenced;
}

/** A heading as pages slug it for anchors: `DeepSeek R1 Low Latency 20ms 1` → `deepseek-r1-low-latency-20ms-1`. */
export function headingSlug(title: string): string {
  return title.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchor links reach a heading by (lower-case): its own `{#id}`, else its slug. */
export function anchorOf(heading: { title: string; anchor: string | null }): string {
  return (heading.anchor ?? headingSlug(heading.title)).toLowerCase();
}

/** True when the facts say anything a summary row or a table column could use. */
export function statesFacts(facts: HeadingFacts): boolean {
  return [facts.model, facts.hardware, facts.cards, facts.deployMode, facts.datasetLabel].some((f) => f !== undefined);
}

function withFacts(facts: HeadingFacts, added: RowFacts | null): HeadingFacts {
  if (!added) return facts;
  const { meanTpotMs: _measured, outputPerCard: _perCard, ...stated } = added;
  return { ...facts, ...stated };
}

/** A plain line that reads as a recipe heading: model and hardware, with cards, deploy mode or workload. */
function isPlainHeading(text: string, facts: HeadingFacts): boolean {
  if (text.length === 0 || text.length > 160 || /[:=]$|^[-=]|\\$/.test(text)) return false;
  return facts.model !== undefined && facts.hardware !== undefined && (facts.cards !== undefined || facts.deployMode !== undefined || facts.datasetLabel !== undefined);
}

/**
 * The fact lines after `from` (blank lines between them skipped), up to the first other line;
 * their facts merged, and the lines they occupy.
 */
function factLinesAfter(lines: readonly string[], from: number, excluded: ReadonlySet<number>): { facts: RowFacts; lines: number[] } {
  const facts: RowFacts = {};
  const used: number[] = [];
  for (let i = from; i < lines.length && !excluded.has(i); i++) {
    if (lines[i]!.trim() === '') continue;
    const stated = readFactLine(lines[i]!.trim());
    if (!stated) break;
    Object.assign(facts, stated);
    used.push(i);
  }
  return { facts, lines: used };
}

/** Every heading of the document, in order; `excluded` lines (blocks, commands, tables) are never headings. */
export function findHeadings(lines: readonly string[], firstContentLine: number, excluded: ReadonlySet<number>): Heading[] {
  const headings: Heading[] = [];
  const consumed = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (excluded.has(i) || consumed.has(i)) continue;
    const md = MARKDOWN_HEADING.exec(lines[i]!);
    const anchor = md ? (CUSTOM_ANCHOR.exec(md[2]!)?.[1] ?? null) : null;
    const text = md ? md[2]!.replace(CUSTOM_ANCHOR, '') : lines[i]!.trim();
    const labelled = md ? null : readFactLine(text);
    let title = text;
    if (md) {
      // A `#` line is a title only at the top; anywhere else it is a shell comment.
      if (md[1]!.length === 1 && (i >= firstContentLine || headings.length > 0)) continue;
    } else if (labelled?.model !== undefined) {
      // A fact line naming the model opens a recipe; a short line of prose above it is its title.
      const above = previousProse(lines, i, excluded, consumed);
      if (above >= 0) title = lines[above]!.trim();
    } else if (!isPlainHeading(text, parseHeading(text))) {
      continue;
    }
    const following = factLinesAfter(lines, i + 1, excluded);
    following.lines.forEach((l) => consumed.add(l));
    const facts = withFacts(withFacts(parseHeading(title), labelled), following.facts);
    headings.push({ line: i, text: title, level: md ? md[1]!.length : 0, facts, anchor });
  }
  return headings;
}

/** The nearest non-blank line above `line` when it is short prose (not excluded, not a heading's fact line); else -1. */
function previousProse(lines: readonly string[], line: number, excluded: ReadonlySet<number>, consumed: ReadonlySet<number>): number {
  for (let i = line - 1; i >= 0; i--) {
    if (lines[i]!.trim() === '') continue;
    return excluded.has(i) || consumed.has(i) || lines[i]!.trim().length > 120 || MARKDOWN_HEADING.test(lines[i]!) ? -1 : i;
  }
  return -1;
}
