/** A table found in a page, whatever form it arrived in (Markdown, HTML, one cell per line, CSV). */

export interface PageTableRow {
  cells: string[];
  /** The `#anchor` a cell of the row links to (a page's "Optimal Configuration" link), else null. */
  anchor: string | null;
}

export interface PageTable {
  header: string[];
  rows: PageTableRow[];
  /** 0-based line of the header in the page; -1 for a table that is the whole file (CSV). */
  line: number;
  /** Lines the table occupies, so they are not read as headings or prose. */
  lines: number[];
}
