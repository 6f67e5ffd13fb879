/**
 * Runs of a page or log: one per result block (the recipe runs), and one per summary-table row
 * (labelled `source=summary-table`, with the figures the row states). A summary row is linked
 * to the recipe it summarises: it takes that recipe's deployment and benchmark command, and the
 * label `recipe-run` names the runs read from the recipe's result blocks, if it has any.
 */
import { UserError } from '../../core/errors.js';
import { runIdFor } from '../store/catalog.js';
import type { MetricValue, RunInput } from '../types.js';
import { contentHash } from './content-hash.js';
import { extractDocument, type ExtractedRun, type RecipeSection } from './document.js';
import { findFlatTables } from './flat-table.js';
import type { HeadingFacts } from './heading.js';
import { findMarkdownTables } from './markdown-table.js';
import type { PageTable } from './page-table.js';
import type { RowFacts } from './summary-columns.js';
import { quantizationFor, readSummaryRows, sectionFor, type SummaryRow } from './summary-table.js';

/** Labels of what a heading or a summary row states. */
function factLabels(facts: HeadingFacts | RowFacts | null): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!facts) return labels;
  if (facts.hardware) labels.hardware = facts.hardware;
  if (facts.cards !== undefined) labels.cards = String(facts.cards);
  if ('nodes' in facts && facts.nodes !== undefined) labels.nodes = String(facts.nodes);
  if (facts.deployMode) labels.deploy = facts.deployMode;
  if (facts.targetLatencyMs !== undefined) labels['target-latency-ms'] = String(facts.targetLatencyMs);
  if (facts.datasetLabel) labels.dataset = facts.datasetLabel;
  if (facts.quantization) labels.quantization = facts.quantization;
  return labels;
}

/** The short line above a table that names it (`Low Latency`), Markdown heading marks removed. */
function captionAbove(lines: readonly string[], table: PageTable, tableLines: ReadonlySet<number>): string | null {
  for (let i = table.line - 1; i >= 0; i--) {
    const text = lines[i]!.trim();
    if (text === '') continue;
    if (tableLines.has(i) || text.length > 60) return null;
    return text.replace(/^#+\s*/, '').replace(/\s*\{#[^}]*\}$/, '').replace(/\s*#+$/, '') || null;
  }
  return null;
}

function recipeRun(run: ExtractedRun, file: string, summary: readonly SummaryRow[]): RunInput {
  const labels = factLabels(run.heading);
  const quantization = run.heading && !labels.quantization ? quantizationFor(run.heading, summary) : null;
  if (quantization) labels.quantization = quantization;
  return {
    source: { kind: 'ingest', file, contentHash: contentHash(run.text), title: run.title },
    metrics: run.block.metrics,
    args: run.args,
    model: typeof run.args?.model === 'string' ? run.args.model : (run.heading?.model ?? null),
    toolVersion: run.environment.sglang ? `sglang ${run.environment.sglang}` : null,
    environment: run.environment,
    labels,
    recipe: run.recipe,
    warnings: run.warnings,
  };
}

/** The figures a summary row states: its measured mean TPOT and its output tok/s per card. */
function rowMetrics(facts: RowFacts): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {};
  if (facts.meanTpotMs !== undefined) metrics.mean_tpot_ms = facts.meanTpotMs;
  if (facts.outputPerCard !== undefined) metrics.output_throughput_per_card = facts.outputPerCard;
  return metrics;
}

/** Where a summary run's deployment comes from: the linked recipe, and where that recipe took it if not from its own commands. */
function summaryOrigin(title: string, recipeOrigin: string): string {
  const link = `recipe "${title}" (summary table link)`;
  return recipeOrigin === 'file' ? link : `${link}, deployed as ${recipeOrigin}`;
}

/** The run of a summary row, linked to the recipe section it summarises (if one matches). */
function summaryRun(row: SummaryRow, file: string, sections: readonly RecipeSection[], recipeRunIds: ReadonlyMap<number, string[]>): RunInput {
  const { index, warning } = sectionFor(row, sections);
  const section = index === null ? null : sections[index]!;
  const labels: Record<string, string> = { ...factLabels(row.facts), source: 'summary-table' };
  const linkedRuns = index === null ? [] : (recipeRunIds.get(index) ?? []);
  if (linkedRuns.length) labels['recipe-run'] = linkedRuns.join(',');
  const where = `${row.caption ?? `summary table ${row.table}`}, row ${row.row}`;
  return {
    source: { kind: 'ingest', file, contentHash: contentHash(row.text), title: section ? `${where} → ${section.title}` : where },
    metrics: rowMetrics(row.facts),
    args: section?.args ?? null,
    model: row.facts.model ?? null,
    labels,
    recipe: section?.recipe ? { ...section.recipe, origin: summaryOrigin(section.title, section.recipe.origin) } : null,
    warnings: [...row.warnings, ...(warning ? [warning] : []), ...(section?.recipe || section?.args ? section.warnings : [])],
  };
}

/** The summary runs of a CSV summary table (servebench's `table --format csv` reads back too); empty when it is none. */
export function readSummaryCsvRuns(records: readonly string[][], file: string): RunInput[] {
  const rows = records.filter((r) => r.some((f) => f.trim() !== ''));
  if (rows.length < 2) return [];
  const table: PageTable = { header: rows[0]!.map((h) => h.trim()), rows: rows.slice(1).map((cells) => ({ cells, anchor: null })), line: -1, lines: [] };
  return readSummaryRows([table], () => null).map((row) => summaryRun(row, file, [], new Map()));
}

/**
 * Every run of a page or log: its result blocks and its summary-table rows. Throws `UserError`
 * when it has neither.
 */
export function readDocumentRuns(text: string, file: string): RunInput[] {
  const lines = text.split(/\r?\n/);
  const markdown = findMarkdownTables(lines);
  const flat = findFlatTables(lines, new Set(markdown.flatMap((t) => t.lines)));
  const tables = [...markdown, ...flat.tables].sort((a, b) => a.line - b.line);
  const tableLines = new Set(tables.flatMap((t) => t.lines));
  const { runs, sections } = extractDocument(text, { tableLines });
  const summary = readSummaryRows(tables, (t) => captionAbove(lines, t, tableLines));
  if (runs.length === 0 && summary.length === 0) {
    // A table that looked like one but could not be read is the likeliest reason: say so.
    const why = flat.warnings[0] ? ` (${flat.warnings[0]})` : '';
    throw new UserError(`${file} holds no bench_serving result block ('Serving Benchmark Result'), JSONL record or summary table${why}; nothing ingested`);
  }
  const recipeRuns = runs.map((run) => recipeRun(run, file, summary));
  const recipeRunIds = new Map<number, string[]>();
  runs.forEach((run, i) => {
    if (run.section !== null) recipeRunIds.set(run.section, [...(recipeRunIds.get(run.section) ?? []), runIdFor(recipeRuns[i]!.source.contentHash)]);
  });
  const all = [...recipeRuns, ...summary.map((row) => summaryRun(row, file, sections, recipeRunIds))];
  // What the page holds but could not be read is said once, on its first run.
  all[0]!.warnings = [...flat.warnings, ...(all[0]!.warnings ?? [])];
  return all;
}
