/** Aligned plain-text tables for the terminal. */

/** Renders rows under headers, columns padded to their widest cell; `right` columns align right (numbers). */
export function formatTextTable(headers: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, c) => (right.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A number with fixed decimals, or `-` when absent; `inf` for Infinity. */
export function formatNumber(value: unknown, decimals = 2): string {
  if (typeof value !== 'number' || Number.isNaN(value)) return '-';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return value.toFixed(decimals);
}
