/** Aligned plain-text tables for the terminal. */

/** Renders rows under headers, columns padded to their widest cell; `right` columns align right (numbers). */
export function formatTextTable(headers: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  const widths = headers.map((h, c) => rows.reduce((widest, r) => Math.max(widest, (r[c] ?? '').length), h.length));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, c) => (right.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A change with its sign always shown and fixed decimals: `+1.20`, `-0.35`. */
export function formatSigned(value: number, decimals: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(decimals)}`;
}

/** A number with fixed decimals, or `-` when absent; `inf` for Infinity. */
export function formatNumber(value: unknown, decimals = 2): string {
  if (typeof value !== 'number' || Number.isNaN(value)) return '-';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return value.toFixed(decimals);
}

/** An argument or launch setting as text: strings as they are, `inf`/`-inf`/`nan` for non-finite numbers, JSON otherwise. */
export function formatSetting(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A metric value as text: numbers with 2 decimals unless integral, `inf`, `not set` for null. */
export function formatMetric(value: unknown): string {
  if (value === undefined) return '-';
  if (value === null) return 'not set';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatNumber(value);
  return String(value);
}
