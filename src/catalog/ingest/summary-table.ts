/**
 * A best-practice page's summary tables: one row per configuration (model, hardware, cards,
 * deploy mode, workload, quantization, and often its TPOT and output tok/s per card). Each row
 * is read by its header, in any column order, and is linked to the recipe section it summarises:
 * the section its `#anchor` link points to, else the one section stating the same model, hardware,
 * cards, deploy mode and workload. A recipe heading also takes its quantization from the row that
 * matches it.
 */
import type { HeadingFacts } from './heading.js';
import type { PageTable } from './page-table.js';
import { anchorOf } from './recipe-headings.js';
import { columnOf, readCell, type RowFacts } from './summary-columns.js';

export interface SummaryRow {
  facts: RowFacts;
  /** The `#anchor` the row links to, when it links to one. */
  anchor: string | null;
  /** 1-based numbers of its table among the page's summary tables and of the row in it. */
  table: number;
  row: number;
  /** The table's caption (the line above it: `Low Latency`), when it has one. */
  caption: string | null;
  /** The row as `header: cell` lines under its position: what identifies it (its content hash). */
  text: string;
  /** Cells that do not fit their column (`Cards: many`). */
  warnings: string[];
}

/** The facts both a row and a heading can state, compared to match them. */
type ComparableFacts = Pick<RowFacts, 'model' | 'hardware' | 'cards' | 'deployMode' | 'datasetLabel' | 'targetLatencyMs'>;

/** True for a table with a Model column and at least two other summary columns. */
function isSummaryTable(table: PageTable): boolean {
  const fields = table.header.map(columnOf);
  return fields.includes('model') && fields.filter((f) => f !== null).length >= 3;
}

/** The rows of the summary tables among `tables` (in page order); `captionOf` names a table. */
export function readSummaryRows(tables: readonly PageTable[], captionOf: (table: PageTable) => string | null): SummaryRow[] {
  const rows: SummaryRow[] = [];
  tables.filter(isSummaryTable).forEach((table, t) => {
    const fields = table.header.map(columnOf);
    table.rows.forEach((row, r) => {
      const facts: RowFacts = {};
      const warnings: string[] = [];
      fields.forEach((field, c) => {
        const cell = readCell(field, row.cells[c] ?? '');
        if (cell === null) warnings.push(`summary table ${t + 1} row ${r + 1}: ${table.header[c]} '${row.cells[c]}' is not a ${table.header[c]} value; left out`);
        else Object.assign(facts, cell);
      });
      if (facts.model === undefined) return;
      const text = [`summary table ${t + 1} row ${r + 1}`, ...table.header.map((h, c) => `${h}: ${row.cells[c] ?? ''}`)].join('\n');
      rows.push({ facts, anchor: row.anchor, table: t + 1, row: r + 1, caption: captionOf(table), text, warnings });
    });
  });
  return rows;
}

const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9.]/g, '');

/** Agreement of a row with a heading: -1 when a fact both state differs, else how many facts both state alike. */
function agreement(row: ComparableFacts, heading: ComparableFacts): number {
  let same = 0;
  const compare = (a: unknown, b: unknown, equal: (x: never, y: never) => boolean): boolean => {
    if (a === undefined || b === undefined) return true;
    if (!equal(a as never, b as never)) return false;
    same++;
    return true;
  };
  const text = (x: string, y: string): boolean => norm(x).startsWith(norm(y)) || norm(y).startsWith(norm(x));
  const ok =
    compare(row.model, heading.model, text) &&
    compare(row.hardware, heading.hardware, text) &&
    compare(row.cards, heading.cards, (x, y) => x === y) &&
    compare(row.deployMode, heading.deployMode, (x, y) => x === y) &&
    compare(row.datasetLabel, heading.datasetLabel, (x, y) => x === y) &&
    compare(row.targetLatencyMs, heading.targetLatencyMs, (x, y) => x === y);
  return ok ? same : -1;
}

/** The quantization of the single best-matching row (at least two facts alike), or null. */
export function quantizationFor(heading: HeadingFacts, rows: readonly SummaryRow[]): string | null {
  let best: SummaryRow | null = null;
  let bestScore = 1;
  let tie = false;
  for (const row of rows) {
    if (row.facts.quantization === undefined) continue;
    const score = agreement(row.facts, heading);
    if (score > bestScore) [best, bestScore, tie] = [row, score, false];
    else if (score === bestScore && best && row.facts.quantization !== best.facts.quantization) tie = true;
  }
  return best && !tie ? best.facts.quantization! : null;
}

/** The section a row summarises: its index, or null with a warning when several match alike. */
export function sectionFor(
  row: SummaryRow,
  sections: readonly { title: string; anchor: string | null; facts: HeadingFacts }[],
): { index: number | null; warning: string | null } {
  if (row.anchor !== null) {
    const anchor = row.anchor.toLowerCase();
    const linked = sections.flatMap((s, i) => (anchorOf(s) === anchor ? [i] : []));
    if (linked.length === 1) return { index: linked[0]!, warning: null };
  }
  // Model and workload must be stated on both sides; the other facts must agree where both state them.
  let best: number[] = [];
  let bestScore = -1;
  sections.forEach((section, i) => {
    const facts = section.facts;
    if (facts.model === undefined || facts.datasetLabel === undefined || row.facts.datasetLabel === undefined) return;
    const score = agreement(row.facts, facts);
    if (score < 0 || norm(facts.datasetLabel) !== norm(row.facts.datasetLabel)) return;
    if (score > bestScore) [best, bestScore] = [[i], score];
    else if (score === bestScore) best.push(i);
  });
  if (best.length === 1) return { index: best[0]!, warning: null };
  if (best.length === 0) return { index: null, warning: null };
  const titles = best.map((i) => `"${sections[i]!.title}"`).join(', ');
  return { index: null, warning: `summary table ${row.table} row ${row.row} matches ${best.length} recipes alike (${titles}); not linked to one` };
}
