/** Renders best-practice table groups as Markdown, CSV or HTML. Everything from a log is escaped. */
import type { BestPracticeRow, ClassGroup, DefinitionNote } from './best-practice.js';
import { csvField, escapeHtml, escapeMarkdownCell } from './escape.js';
import { formatNumber } from './text-table.js';
import { formatConfidenceLevel } from '../../core/confidence.js';

export type TableFormat = 'md' | 'csv' | 'html';

/** A column added before the recipe (the accuracy of a task, say): its heading, CSV name and cell per row. */
export interface ExtraColumn {
  header: string;
  csvHeader: string;
  cell(row: BestPracticeRow): string;
}

const HEADERS = ['Model', 'Hardware', 'Cards', 'Deploy mode', 'Dataset', 'Quantization', 'Mean TPOT (ms)', 'Output tok/s per card', 'Recipe'];

/** Marks a figure measured with another tool's definition; the group's notes say which. */
const REDEFINED = ' †';
const COLUMN_NAMES: Record<DefinitionNote['column'], string> = { meanTpotMs: 'mean TPOT', outputPerCard: 'output throughput' };

/** The notes of the figures the row shows (a figure it lacks needs none). */
function shownNotes(row: BestPracticeRow): DefinitionNote[] {
  return row.definitionNotes.filter((n) => row[n.column] !== null);
}

function marked(row: BestPracticeRow, column: DefinitionNote['column'], text: string): string {
  return shownNotes(row).some((n) => n.column === column) ? `${text}${REDEFINED}` : text;
}

/** One line per redefined figure of the group: `† mean TPOT of run ID: definition`. */
function definitionLines(group: ClassGroup): string[] {
  return group.rows.flatMap((row) => shownNotes(row).map((n) => `${REDEFINED.trim()} ${COLUMN_NAMES[n.column]} of run ${row.runId}: ${n.definition}`));
}

/** The row's facts, its two figures (as `figures` writes them) and the extra columns. */
function cells(row: BestPracticeRow, extra: readonly ExtraColumn[], figures: (row: BestPracticeRow) => string[] = markedFigures): string[] {
  return [
    row.model ?? '-',
    row.hardware ?? '-',
    row.cards === null ? '-' : String(row.cards),
    row.deployMode ?? '-',
    row.dataset ?? '-',
    row.quantization ?? '-',
    ...figures(row),
    ...extra.map((column) => column.cell(row)),
  ];
}

/** A row's figure, with `± half-width` when the row stands for a repeat group. */
export function figureWithInterval(row: BestPracticeRow, column: 'meanTpotMs' | 'outputPerCard'): string {
  const half = row.interval?.[column] ?? null;
  return half === null || row[column] === null ? formatNumber(row[column]) : `${formatNumber(row[column])} ± ${formatNumber(half)}`;
}

function markedFigures(row: BestPracticeRow): string[] {
  return [marked(row, 'meanTpotMs', figureWithInterval(row, 'meanTpotMs')), marked(row, 'outputPerCard', figureWithInterval(row, 'outputPerCard'))];
}

/** The line under a class whose rows have intervals: what ± means there. */
function intervalLines(group: ClassGroup): string[] {
  const levels = [...new Set(group.rows.flatMap((row) => (row.interval ? [formatConfidenceLevel(row.interval.level)] : [])))];
  if (levels.length === 0) return [];
  return [`± half-width of the ${levels.join(' or ')} confidence interval of the mean over a repeat group's runs (servebench bench --num-runs); the row's run is its first`];
}

/** CSV cells stay plain numbers; what a redefined figure means goes in its own column. */
function plainFigures(row: BestPracticeRow): string[] {
  return [formatNumber(row.meanTpotMs), formatNumber(row.outputPerCard)];
}

function classTitle(group: ClassGroup): string {
  const bound = group.latencyClass.maxTpotMs;
  return bound === null ? group.latencyClass.name : `${group.latencyClass.name} (mean TPOT <= ${bound} ms)`;
}

function headers(extra: readonly ExtraColumn[]): string[] {
  return [...HEADERS.slice(0, -1), ...extra.map((column) => column.header), HEADERS.at(-1)!];
}

function markdown(groups: readonly ClassGroup[], extra: readonly ExtraColumn[]): string {
  const out: string[] = [];
  const titles = headers(extra);
  for (const group of groups) {
    out.push(`### ${escapeMarkdownCell(classTitle(group))}`, '', `| ${titles.join(' | ')} |`, `|${titles.map(() => '---').join('|')}|`);
    for (const row of group.rows) {
      const recipe = escapeMarkdownCell(row.recipe).replace(/[[\]]/g, '\\$&');
      const link = row.link ? `[${recipe}](<${row.link.replace(/[<>]/g, encodeURIComponent)}>) (run ${row.runId})` : `run ${row.runId}`;
      out.push(`| ${[...cells(row, extra).map(escapeMarkdownCell), link].join(' | ')} |`);
    }
    const notes = [...definitionLines(group), ...intervalLines(group)];
    out.push('', ...notes.map((n) => `${escapeMarkdownCell(n)}  `), ...(notes.length ? [''] : []));
  }
  return out.join('\n');
}

function csv(groups: readonly ClassGroup[], extra: readonly ExtraColumn[]): string {
  const header = [
    'latency_class', 'model', 'hardware', 'cards', 'deploy_mode', 'dataset', 'quantization', 'mean_tpot_ms', 'output_tok_s_per_card',
    ...extra.map((column) => column.csvHeader), 'recipe', 'source', 'run_id', 'cards_derivation', 'definition_notes',
    'repeat_runs', 'confidence_level', 'mean_tpot_ms_ci_half_width', 'output_tok_s_per_card_ci_half_width',
  ];
  const lines = [header.join(',')];
  for (const group of groups) {
    for (const row of group.rows) {
      const notes = shownNotes(row).map((n) => `${COLUMN_NAMES[n.column]}: ${n.definition}`).join('; ');
      const { interval } = row;
      const repeat = interval ? [String(interval.runs), String(interval.level), formatNumber(interval.meanTpotMs), formatNumber(interval.outputPerCard)] : ['', '', '', ''];
      const fields = [group.latencyClass.name, ...cells(row, extra, plainFigures), row.recipe, row.link ?? '', row.runId, row.cardsHow ?? '', notes, ...repeat];
      lines.push(fields.map((f) => csvField(f === '-' ? '' : f)).join(','));
    }
  }
  return lines.join('\n') + '\n';
}

function html(groups: readonly ClassGroup[], extra: readonly ExtraColumn[]): string {
  const out = ['<!DOCTYPE html>', '<html><head><meta charset="utf-8"><title>servebench best-practice table</title></head><body>'];
  for (const group of groups) {
    out.push(`<h3>${escapeHtml(classTitle(group))}</h3>`, '<table>', `<tr>${headers(extra).map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`);
    for (const row of group.rows) {
      const title = row.cardsHow ? ` title="${escapeHtml(row.cardsHow)}"` : '';
      const tds = cells(row, extra).map((c, i) => (i === 2 ? `<td${title}>${escapeHtml(c)}</td>` : `<td>${escapeHtml(c)}</td>`));
      const recipe = row.link
        ? `<a href="${escapeHtml(encodeURI(row.link))}">${escapeHtml(row.recipe)}</a> <code>${escapeHtml(row.runId)}</code>`
        : `<code>${escapeHtml(row.runId)}</code>`;
      out.push(`<tr>${tds.join('')}<td>${recipe}</td></tr>`);
    }
    out.push('</table>', ...[...definitionLines(group), ...intervalLines(group)].map((n) => `<p>${escapeHtml(n)}</p>`));
  }
  out.push('</body></html>');
  return out.join('\n') + '\n';
}

/** The table in the requested format, with `extra` columns before the recipe. */
export function renderBestPractice(groups: readonly ClassGroup[], format: TableFormat, extra: readonly ExtraColumn[] = []): string {
  return format === 'md' ? markdown(groups, extra) : format === 'csv' ? csv(groups, extra) : html(groups, extra);
}
