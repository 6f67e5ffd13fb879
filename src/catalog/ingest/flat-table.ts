/**
 * Tables copied from a web page as text arrive one cell per line: the header cells, then each
 * row's cells in order, with no separators (blank lines between cells are ignored). A run of at
 * least three summary-column names, Model among them, starts such a table; rows follow while
 * every cell fits its column (a number under Cards, a deploy mode under Deploy Mode, ...), so the
 * table ends where the page's prose resumes.
 */
import type { PageTable, PageTableRow } from './page-table.js';
import { columnOf, readCell, type SummaryField } from './summary-columns.js';

interface Line {
  text: string;
  line: number;
}

/**
 * A row of cells that fit their columns and are not column names (the next table's header);
 * a Configuration cell is exempt: pages fill it with the words "Optimal Configuration".
 */
function fits(fields: readonly SummaryField[], cells: readonly Line[]): boolean {
  return cells.every((cell, i) => readCell(fields[i]!, cell.text) !== null && (fields[i] === 'configuration' || columnOf(cell.text) === null));
}

/** The header starting at `start`: consecutive distinct column names. */
function headerAt(lines: readonly Line[], start: number): SummaryField[] {
  const fields: SummaryField[] = [];
  for (let i = start; i < lines.length; i++) {
    const field = columnOf(lines[i]!.text);
    if (field === null || fields.includes(field)) break;
    fields.push(field);
  }
  return fields;
}

export interface FlatTables {
  tables: PageTable[];
  /** A header whose first row does not fit, so no table could be read under it. */
  warnings: string[];
}

/** Every one-cell-per-line table in the lines (lines in `skip` are not read). */
export function findFlatTables(allLines: readonly string[], skip: ReadonlySet<number> = new Set()): FlatTables {
  const lines: Line[] = [];
  allLines.forEach((text, line) => {
    if (text.trim() !== '' && !skip.has(line)) lines.push({ text: text.trim(), line });
  });
  const tables: PageTable[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fields = headerAt(lines, i);
    if (fields.length < 3 || !fields.includes('model')) continue;
    const header = lines.slice(i, i + fields.length);
    const rows: PageTableRow[] = [];
    let next = i + fields.length;
    for (; next + fields.length <= lines.length; next += fields.length) {
      const cells = lines.slice(next, next + fields.length);
      if (!fits(fields, cells)) break;
      rows.push({ cells: cells.map((c) => c.text), anchor: null });
    }
    if (rows.length === 0) {
      warnings.push(`lines ${header[0]!.line + 1}-${header.at(-1)!.line + 1} look like a table header (${header.map((h) => h.text).join(', ')}) but the lines under them do not fit its columns; not read`);
    } else {
      const used = lines.slice(i, next).map((l) => l.line);
      tables.push({ header: header.map((h) => h.text), rows, line: header[0]!.line, lines: used });
    }
    i = next - 1;
  }
  return { tables, warnings };
}
