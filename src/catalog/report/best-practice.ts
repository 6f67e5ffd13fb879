/**
 * The best-practice table: one row per run (model, hardware, cards, deploy mode, dataset label,
 * quantization, mean TPOT, output tok/s per card, link), grouped into latency classes by TPOT as
 * the published SGLang best-practice pages do. The runs of one repeated measurement make one row:
 * their means, with the half-widths of their confidence intervals.
 */
import { UsageError } from '../../core/errors.js';
import { BENCH_SERVING_DEFINITIONS, definitionOf, metricFamily } from '../metric-definitions.js';
import type { RunRecord } from '../types.js';
import { isEvalRun } from './eval-runs.js';
import { deriveCards, deriveDatasetLabel, deriveDeployMode, deriveHardware, deriveQuantization, shortModelName } from './run-facts.js';
import { summarizeGroup } from './repeat-groups.js';

/** A latency class: runs whose mean TPOT is at most `maxTpotMs` (null = no bound: the catch-all class). */
export interface LatencyClass {
  name: string;
  maxTpotMs: number | null;
}

export const DEFAULT_CLASSES = 'low-latency:<=20,balanced:<=50,high-throughput';

export interface BestPracticeRow {
  runId: string;
  model: string | null;
  hardware: string | null;
  cards: number | null;
  cardsHow: string | null;
  deployMode: string | null;
  dataset: string | null;
  quantization: string | null;
  meanTpotMs: number | null;
  outputThroughput: number | null;
  /** Output token throughput ÷ cards, rounded to 2 decimals, else the per-card figure a summary table states; null without either. */
  outputPerCard: number | null;
  /** The row's figures that another tool defined differently from bench_serving, with that definition. */
  definitionNotes: DefinitionNote[];
  /** Recipe heading, else the source file name, else the run id. */
  recipe: string;
  /** The source file of the run, when it has one. */
  link: string | null;
  /** Set by `bestPerConfiguration`: the other runs of the same configuration this row stands for. */
  alternatives?: number;
  /** The row stands for a repeat group: its figures are the means over `runs` runs, ± these half-widths at `level`. */
  interval?: RowInterval;
}

/** How sure a repeat group's row is of its two figures. */
export interface RowInterval {
  runs: number;
  level: number;
  /** Half-widths of the intervals of the figures of the same name; null where the group has none. */
  meanTpotMs: number | null;
  outputPerCard: number | null;
}

/** A table figure whose definition is not bench_serving's (the table's columns are bench_serving's). */
export interface DefinitionNote {
  column: 'meanTpotMs' | 'outputPerCard';
  /** What the figure is, e.g. GuideLLM's TPOT with the first token included. */
  definition: string;
}

export interface ClassGroup {
  latencyClass: LatencyClass;
  rows: BestPracticeRow[];
}

/** Parses `name:<=20,name:<=50,name` (ascending bounds; an optional last class without a bound). */
export function parseClasses(spec: string): LatencyClass[] {
  const classes = spec.split(',').map((part, i, all): LatencyClass => {
    const m = /^\s*([\w.-]+)\s*(?::\s*<=?\s*(\d+(?:\.\d+)?)\s*(?:ms)?)?\s*$/.exec(part);
    if (!m) throw new UsageError(`--classes: cannot read '${part}'; write name:<=MS pairs, e.g. "${DEFAULT_CLASSES}"`);
    if (m[2] === undefined && i !== all.length - 1) throw new UsageError(`--classes: only the last class may omit its '<=MS' bound ('${part}')`);
    return { name: m[1]!, maxTpotMs: m[2] === undefined ? null : Number(m[2]) };
  });
  for (let i = 1; i < classes.length; i++) {
    const prev = classes[i - 1]!.maxTpotMs;
    const cur = classes[i]!.maxTpotMs;
    if (prev !== null && cur !== null && cur <= prev) throw new UsageError(`--classes: bounds must increase ('${classes[i]!.name}' after '${classes[i - 1]!.name}')`);
  }
  return classes;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The table's columns are bench_serving's mean TPOT and output throughput; a run measured otherwise says how. */
function definitionNotes(run: RunRecord): DefinitionNote[] {
  const columns = [['mean_tpot_ms', 'meanTpotMs'], ['output_throughput', 'outputPerCard']] as const;
  return columns.flatMap(([key, column]) => {
    const definition = definitionOf(run.metricDefinitions, key);
    return key in run.metrics && definition !== null && definition !== BENCH_SERVING_DEFINITIONS[metricFamily(key)] ? [{ column, definition }] : [];
  });
}

/** One table row for a run. */
export function bestPracticeRow(run: RunRecord): BestPracticeRow {
  const cards = deriveCards(run);
  const output = num(run.metrics.output_throughput);
  const statedPerCard = num(run.metrics.output_throughput_per_card);
  return {
    runId: run.id,
    model: shortModelName(run),
    hardware: deriveHardware(run)?.value ?? null,
    cards: cards?.value ?? null,
    cardsHow: cards?.how ?? null,
    deployMode: deriveDeployMode(run),
    dataset: deriveDatasetLabel(run),
    quantization: deriveQuantization(run)?.value ?? null,
    meanTpotMs: num(run.metrics.mean_tpot_ms),
    outputThroughput: output,
    outputPerCard: output !== null && cards ? Math.round((output / cards.value) * 100) / 100 : statedPerCard,
    definitionNotes: definitionNotes(run),
    recipe: run.source.title ?? (run.source.file ? run.source.file.split('/').pop()! : run.id),
    link: run.source.file,
  };
}

/**
 * The row of a repeat group's runs: the first run's facts, each figure the mean over the runs with
 * its interval's half-width (per card as the figure is).
 */
export function repeatGroupRow(runs: readonly RunRecord[]): BestPracticeRow {
  const row = bestPracticeRow(runs[0]!);
  const summary = summarizeGroup(runs);
  const figure = (key: string) => summary.figures.find((f) => f.figure.key === key);
  const tpot = figure('mean_tpot_ms');
  const output = figure('output_throughput');
  const perCard = (value: number): number => (row.cards ? Math.round((value / row.cards) * 100) / 100 : value);
  return {
    ...row,
    meanTpotMs: tpot?.mean ?? null,
    outputThroughput: output?.mean ?? null,
    outputPerCard: output && row.cards ? perCard(output.mean) : null,
    interval: {
      runs: runs.length,
      level: summary.level,
      meanTpotMs: tpot?.halfWidth ?? null,
      outputPerCard: output?.halfWidth != null && row.cards ? perCard(output.halfWidth) : null,
    },
  };
}

/** One row per repeat group (two or more of its runs among `runs`) and per other run, in the order of their first run. */
function tableRows(runs: readonly RunRecord[]): BestPracticeRow[] {
  const groups = new Map<string, RunRecord[]>();
  for (const run of runs) if (run.repeat) groups.set(run.repeat.group, [...(groups.get(run.repeat.group) ?? []), run]);
  const rows: BestPracticeRow[] = [];
  for (const run of runs) {
    const group = run.repeat ? groups.get(run.repeat.group)! : null;
    if (group === null || group.length < 2) rows.push(bestPracticeRow(run));
    else if (group[0] === run) rows.push(repeatGroupRow(group));
  }
  return rows;
}

/**
 * Rows grouped by latency class (first class whose bound holds); rows without a TPOT form a final
 * `unclassified` group. Within a class: by model, then the highest output per card first. Eval
 * (accuracy) runs are no rows of their own: their accuracy goes beside the rows (`accuracyColumns`).
 * A repeat group's runs make one row (`repeatGroupRow`).
 */
export function groupByLatencyClass(runs: readonly RunRecord[], classes: readonly LatencyClass[]): ClassGroup[] {
  const groups: ClassGroup[] = classes.map((latencyClass) => ({ latencyClass, rows: [] }));
  const unclassified: ClassGroup = { latencyClass: { name: 'unclassified', maxTpotMs: null }, rows: [] };
  for (const row of tableRows(runs.filter((run) => !isEvalRun(run)))) {
    const tpot = row.meanTpotMs;
    const group = tpot === null ? unclassified : groups.find((g) => g.latencyClass.maxTpotMs === null || tpot <= g.latencyClass.maxTpotMs);
    (group ?? unclassified).rows.push(row);
  }
  const byModelThenThroughput = (a: BestPracticeRow, b: BestPracticeRow): number =>
    (a.model ?? '').localeCompare(b.model ?? '') || (b.outputPerCard ?? -1) - (a.outputPerCard ?? -1) || a.runId.localeCompare(b.runId);
  return [...groups, unclassified].filter((g) => g.rows.length > 0).map((g) => ({ ...g, rows: g.rows.sort(byModelThenThroughput) }));
}

/** The facts that make two rows the same configuration: what a best-practice table promises a reader. */
function configurationOf(row: BestPracticeRow): string {
  return JSON.stringify([row.model, row.hardware, row.cards, row.deployMode, row.dataset, row.quantization]);
}

/**
 * One row per configuration (model, hardware, cards, deploy mode, workload, quantization) in each
 * latency class: the one with the highest output per card, `alternatives` counting the other runs
 * it stands for. Groups keep their order; rows keep `groupByLatencyClass`'s.
 */
export function bestPerConfiguration(groups: readonly ClassGroup[]): ClassGroup[] {
  return groups.map((group) => {
    const best = new Map<string, BestPracticeRow>();
    const counts = new Map<string, number>();
    for (const row of group.rows) {
      const key = configurationOf(row);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const kept = best.get(key);
      if (kept === undefined || (row.outputPerCard ?? -1) > (kept.outputPerCard ?? -1)) best.set(key, row);
    }
    const rows = group.rows.filter((row) => best.get(configurationOf(row)) === row).map((row) => ({ ...row, alternatives: counts.get(configurationOf(row))! - 1 }));
    return { ...group, rows };
  });
}
