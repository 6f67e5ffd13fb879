/**
 * A recipe page often opens with a Markdown summary table (model, hardware, deployment, workload,
 * quantization, ...). This reads its quantization column and assigns each row to the recipe
 * whose heading states the same facts.
 */
import { parseHeading, type HeadingFacts } from './heading.js';

export interface SummaryRow {
  facts: HeadingFacts;
  quantization: string;
}

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** Rows of every Markdown table in the text that has a quantization column. */
export function readSummaryRows(text: string): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!/^\s*\|.*\|\s*$/.test(lines[i]!) || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1]!)) continue;
    const header = cells(lines[i]!).map((h) => h.toLowerCase());
    const quantColumn = header.findIndex((h) => h.includes('quant'));
    let j = i + 2;
    for (; j < lines.length && /^\s*\|.*\|\s*$/.test(lines[j]!); j++) {
      if (quantColumn < 0) continue;
      const row = cells(lines[j]!);
      const quantization = row[quantColumn] ?? '';
      if (!quantization) continue;
      const described = row.filter((_, k) => k !== quantColumn).join(' ');
      rows.push({ facts: parseHeading(described), quantization });
    }
    i = j - 1;
  }
  return rows;
}

const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9.]/g, '');

/** Agreement of a row with a heading: -1 when a stated fact differs, else the number of facts both state alike. */
function agreement(row: HeadingFacts, heading: HeadingFacts): number {
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
    const score = agreement(row.facts, heading);
    if (score > bestScore) [best, bestScore, tie] = [row, score, false];
    else if (score === bestScore && best && row.quantization !== best.quantization) tie = true;
  }
  return best && !tie ? best.quantization : null;
}
