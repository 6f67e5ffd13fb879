/**
 * Markdown tables: a header row, a `|---|---|` separator, then rows, outer pipes optional. Cells
 * keep their text; a link's target is kept only when it is an `#anchor` (a summary row's link to
 * its recipe section).
 */
import type { PageTable, PageTableRow } from './page-table.js';

const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const LINK = /\[([^\]]*)\]\(([^)\s]*)[^)]*\)/g;

/** The cells of a table line: split at pipes that are not escaped, outer pipes dropped. */
function splitCells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** A cell's text (links by their text, emphasis and code marks and `<br>` removed) and its `#anchor`. */
function readCell(cell: string): { text: string; anchor: string | null } {
  let anchor: string | null = null;
  const text = cell
    .replace(LINK, (_, label: string, target: string) => {
      if (target.startsWith('#')) anchor ??= target.slice(1);
      return label;
    })
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/\*\*|__|`/g, '')
    .trim();
  return { text, anchor };
}

function row(line: string): PageTableRow {
  const cells = splitCells(line).map(readCell);
  return { cells: cells.map((c) => c.text), anchor: cells.find((c) => c.anchor !== null)?.anchor ?? null };
}

/** Every Markdown table in the lines, in order. */
export function findMarkdownTables(lines: readonly string[]): PageTable[] {
  const tables: PageTable[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.includes('|') || !SEPARATOR.test(lines[i + 1]!) || !lines[i + 1]!.includes('|')) continue;
    const header = row(lines[i]!).cells;
    const rows: PageTableRow[] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.includes('|') && lines[j]!.trim() !== ''; j++) rows.push(row(lines[j]!));
    tables.push({ header, rows, line: i, lines: Array.from({ length: j - i }, (_, k) => i + k) });
    i = j - 1;
  }
  return tables;
}
