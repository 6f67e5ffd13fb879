/** Terminal views of stored runs: the `runs` list, `show` details and the `compare` table. Pure. */
import { formatConfidenceLevel } from '../../core/confidence.js';
import type { RunRecord } from '../types.js';
import { definitionDifferences, settingDifferences, type MetricRow, type NoiseCheck } from './compare.js';
import type { GroupNoiseCheck } from './repeat-groups.js';
import { figureSummaryText, shardLines, type FigureSummary, type RepeatedRunsSummary } from '../../bench/index.js';
import type { LinkedRun } from './eval-runs.js';
import { deriveCards, deriveDatasetLabel, deriveDeployMode, deriveHardware, deriveQuantization, instanceFacts, shortModelName } from './run-facts.js';
import { sanitizeTerminal } from './escape.js';
import { TEXT_METRICS } from '../ingest/jsonl.js';
import { formatMetric, formatNumber, formatSetting, formatSigned, formatTextTable } from './text-table.js';

/** Where a run stands in its repeat group: `3f2a1b:2/3` (one word, for scripts that split the columns), or `-` for a run measured once. */
function repeatCell(run: RunRecord): string {
  return run.repeat ? `${run.repeat.group.slice(0, 6)}:${run.repeat.run}/${run.repeat.runs}` : '-';
}

/** The headline figures a group line shows. */
const GROUP_LINE_FIGURES = ['output_throughput', 'mean_ttft_ms', 'mean_tpot_ms'];

/** One line per repeat group: `group 3f2a1b9c0d1e (3 runs, 95% CI): Output token throughput (tok/s) 484.54 ± 0.15, ...`. */
function repeatGroupLines(groups: ReadonlyMap<string, RepeatedRunsSummary>): string[] {
  return [...groups].map(([group, summary]) => {
    const figures = summary.figures.filter((f) => GROUP_LINE_FIGURES.includes(f.figure.key)).map((f) => `${figureName(f.figure.label)} ${meanWithInterval(f)}`);
    return `group ${group} (${summary.runs} runs, ${formatConfidenceLevel(summary.level)} CI): ${figures.join(', ')}`;
  });
}

/**
 * The `runs` table, one line per run (REPEAT: its group and place in it), then one line per repeat
 * group of the listed runs with its means and intervals (`groups`: each group's summary over all its runs).
 */
export function formatRunList(runs: readonly RunRecord[], groups: ReadonlyMap<string, RepeatedRunsSummary> = new Map()): string {
  const rows = runs.map((run) => [
    run.id,
    (run.startedAt ?? run.recordedAt).slice(0, 16).replace('T', ' '),
    run.mode,
    shortModelName(run) ?? '-',
    deriveHardware(run)?.value ?? '-',
    deriveCards(run)?.value.toString() ?? '-',
    deriveDatasetLabel(run) ?? '-',
    formatMetric(run.metrics.max_concurrency ?? run.args?.max_concurrency),
    formatNumber(run.metrics.output_throughput),
    formatNumber(run.metrics.mean_tpot_ms),
    formatNumber(run.metrics.mean_ttft_ms),
    repeatCell(run),
    String(run.warnings.length),
    run.source.title ?? run.source.file ?? run.source.kind,
  ]);
  const headers = ['ID', 'WHEN', 'MODE', 'MODEL', 'HARDWARE', 'CARDS', 'DATASET', 'CONC', 'OUT TOK/S', 'TPOT MS', 'TTFT MS', 'REPEAT', 'WARN', 'SOURCE'];
  const table = formatTextTable(headers, rows, new Set([5, 7, 8, 9, 10, 12]));
  const groupLines = repeatGroupLines(groups);
  return sanitizeTerminal(groupLines.length === 0 ? table : [table, '', 'repeat groups:', ...groupLines.map((line) => `  ${line}`)].join('\n'));
}

function section(title: string, lines: string[]): string[] {
  return lines.length ? ['', `${title}:`, ...lines.map((l) => `  ${l}`)] : [];
}

/**
 * The server's own figures over the run (`servebench.server_side.metrics`), one `key.stat value`
 * line each; the readings' series are left to `plot --kind server`.
 */
function serverSideLines(metrics: RunRecord['serverMetrics']): string[] {
  if (metrics === null || metrics === undefined) return [];
  const rows: [string, string][] = [];
  for (const [key, value] of Object.entries(metrics)) {
    if (key === 'series') continue;
    if (value === null || typeof value === 'number' || typeof value === 'string') rows.push([key, formatMetric(value)]);
    else if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [stat, v] of Object.entries(value)) if (v === null || typeof v === 'number') rows.push([`${key}.${stat}`, formatMetric(v)]);
    }
  }
  return rows.length === 0 ? [] : formatTextTable(['FIGURE', 'VALUE'], rows, new Set([1])).split('\n');
}

/** A repeat group in `show`: which run this is, the group's runs, and each figure's mean ± interval over them. */
function repeatSection(run: RunRecord, group: readonly RunRecord[], summary: RepeatedRunsSummary | null): string[] {
  if (!run.repeat) return [];
  const lines = [`run ${run.repeat.run} of ${run.repeat.runs} of group ${run.repeat.group}: ${group.map((member) => member.id).join(' ')}`];
  if (summary !== null && summary.runs >= 2) {
    const rows = summary.figures.map((f) => [figureName(f.figure.label), figureSummaryText(f, summary.level)]);
    lines.push(...formatTextTable(['FIGURE', 'OVER THE RUNS'], rows).split('\n'));
  }
  return lines;
}

/**
 * Everything stored about a run (`servebench show`), then `linked`: the runs of the same server
 * configuration; for a run of a repeat group, the group's runs (`group`) and `groupSummary` over them.
 */
export function formatRunDetails(run: RunRecord, linked: readonly LinkedRun[] = [], group: readonly RunRecord[] = [], groupSummary: RepeatedRunsSummary | null = null): string {
  const hardware = deriveHardware(run);
  const cards = deriveCards(run);
  const quantization = deriveQuantization(run);
  const lines = [
    `run ${run.id}`,
    `  source:      ${run.source.kind}${run.source.file ? ` ${run.source.file}` : ''}${run.source.title ? ` — ${run.source.title}` : ''}`,
    `  mode:        ${run.mode}`,
    `  recorded:    ${run.recordedAt}${run.startedAt ? `   started: ${run.startedAt}` : ''}`,
    `  model:       ${run.model ?? '-'}`,
    `  tool:        ${run.toolVersion ?? '-'}`,
    `  hardware:    ${hardware ? `${hardware.value} (${hardware.how})` : '-'}`,
    `  cards:       ${cards ? `${cards.value} (${cards.how})` : '-'}`,
    `  deploy mode: ${deriveDeployMode(run) ?? '-'}`,
    `  dataset:     ${deriveDatasetLabel(run) ?? '-'}`,
    `  quantization: ${quantization ? `${quantization.value} (${quantization.how})` : '-'}`,
    `  requests:    ${run.requestCount} per-request records`,
    `  content:     sha256 ${run.source.contentHash}`,
  ];
  const labelLines = Object.entries(run.labels).map(([k, v]) => `${k}=${v}`);
  // The self-checks' lines are sentences, not figures: they get their own section.
  const figures = Object.fromEntries(Object.entries(run.metrics).filter(([key]) => !TEXT_METRICS.has(key)));
  const selfChecks = [...TEXT_METRICS].map((key) => run.metrics[key]).filter((line): line is string => typeof line === 'string');
  const metricLines = formatTextTable(['METRIC', 'VALUE'], Object.entries(figures).map(([k, v]) => [k, formatMetric(v)]), new Set([1])).split('\n');
  const argLines = Object.entries(run.args ?? {}).map(([k, v]) => `${k}=${formatSetting(v)}`);
  const recipeLines: string[] = [];
  if (run.recipe) {
    recipeLines.push(`origin: ${run.recipe.origin}`);
    for (const [name, value] of Object.entries(run.recipe.env)) recipeLines.push(`export ${name}=${value}`);
    for (const instance of run.recipe.instances) {
      const facts = Object.entries(instanceFacts(instance)).map(([k, v]) => `${k}=${formatSetting(v)}`).join(' ');
      recipeLines.push(`${instance.role} (${instance.launcher}): ${facts || '(no performance flags)'}`);
      const flags = Object.entries(instance.flags).map(([k, v]) => (v === true ? k : `${k} ${v}`)).join(' ');
      // A server that reported itself gave its settings, not its command line: there are no flags to show.
      if (flags !== '') recipeLines.push(`  flags: ${flags}`);
    }
  }
  const envLines = Object.entries(run.environment).map(([k, v]) => `${k}: ${v}`);
  // One line per definition, with the metrics that have it.
  const keysByDefinition = new Map<string, string[]>();
  for (const [key, definition] of Object.entries(run.metricDefinitions ?? {})) keysByDefinition.set(definition, [...(keysByDefinition.get(definition) ?? []), key]);
  const definitionLines = [...keysByDefinition].map(([definition, keys]) => `${keys.join(', ')}: ${definition}`);
  const text = [
    ...lines,
    ...section('labels', labelLines),
    ...section('repeated runs', repeatSection(run, group, groupSummary)),
    ...section('self-checks', selfChecks),
    ...section('metrics', metricLines),
    ...section("the server's /metrics over the run", serverSideLines(run.serverMetrics)),
    ...section('shards (one run sent from several processes or machines)', shardLines(run.shards ?? [])),
    ...section("metrics measured otherwise than bench_serving's", definitionLines),
    ...section('arguments', argLines),
    ...section('recipe', recipeLines),
    ...section('environment', envLines),
    ...section('warnings', run.warnings),
    ...section('same server configuration', linked.map((other) => `run ${other.id}: ${other.summary}`)),
  ].join('\n');
  return sanitizeTerminal(text);
}

function formatChange(change: number | null): string {
  if (change === null) return '';
  return ` (${formatSigned(change * 100, 1)}%)`;
}

/** `582.25 ± 9.84`: a group's mean with the half-width of its interval. */
function meanWithInterval(summary: FigureSummary): string {
  return summary.halfWidth === null ? summary.mean.toFixed(2) : `${summary.mean.toFixed(2)} ± ${summary.halfWidth.toFixed(2)}`;
}

/** A figure's label without the block's colon: `Mean TTFT (ms)`. */
function figureName(label: string): string {
  return label.replace(/:$/, '');
}

/**
 * The verdicts over repeated runs: per compared group, each figure's mean ± interval on both sides,
 * the difference with Welch's interval, and whether it is beyond the noise; for a run measured
 * once, that one run cannot tell.
 */
function groupNoiseLines(runs: readonly RunRecord[], groupChecks: readonly GroupNoiseCheck[]): string[] {
  const out: string[] = [];
  const once = runs.filter((run) => !run.repeat || run.repeat.runs < 2).map((run) => run.id);
  if (once.length > 0) {
    const which = once.length === 1 ? `run ${once[0]} was` : `runs ${once.join(', ')} were`;
    out.push(`run-to-run noise: ${which} measured once, and one run cannot tell a difference from run-to-run noise; measure each side with --num-runs N (N ≥ 2)`);
  }
  const base = runs[0]!;
  runs.forEach((run, index) => {
    if (index > 0 && run.repeat && base.repeat && run.repeat.group === base.repeat.group) out.push(`run-to-run noise: ${run.id} and ${base.id} are runs of one repeated measurement (group ${base.repeat.group})`);
  });
  for (const check of groupChecks) {
    const other = runs[check.run]!;
    const level = formatConfidenceLevel(check.level);
    out.push(
      '',
      `run-to-run noise, group ${check.otherGroup} (run ${other.id}) vs group ${check.baselineGroup} (run ${base.id}), Welch's test at ${level}:`,
      formatTextTable(
        ['FIGURE', `BASELINE (${check.figures[0]?.baseline.count ?? 0} RUNS)`, `OTHER (${check.figures[0]?.other.count ?? 0} RUNS)`, 'DIFFERENCE', `${level} INTERVAL`, 'VERDICT'],
        check.figures.map((f) => [
          figureName(f.figure.label),
          meanWithInterval(f.baseline),
          meanWithInterval(f.other),
          formatSigned(f.welch.difference, 2),
          `${f.welch.low.toFixed(2)} .. ${f.welch.high.toFixed(2)}`,
          f.welch.beyondNoise ? 'beyond noise' : 'within noise',
        ]),
        new Set([1, 2, 3, 4]),
      ),
    );
  }
  return out;
}

/**
 * The `compare` view: metrics side by side with change against the first run, then the noise
 * verdicts: over repeated runs where the runs have groups (`groupChecks`), and the per-request
 * spread of mean TTFT and TPOT within runs (`checks`).
 */
export function formatComparison(runs: readonly RunRecord[], rows: readonly MetricRow[], checks: readonly NoiseCheck[], groupChecks: readonly GroupNoiseCheck[] = []): string {
  const headers = ['METRIC', ...runs.map((r, i) => (i === 0 ? `${r.id} (base)` : r.id))];
  const differences = definitionDifferences(runs, rows);
  const redefined = new Set(differences.flatMap((d) => d.keys));
  const body = rows.map((row) => [
    redefined.has(row.key) ? `${row.key} *` : row.key,
    ...row.values.map((v, i) => `${formatMetric(v)}${formatChange(row.change[i] ?? null)}`),
  ]);
  const out = [formatTextTable(headers, body), ''];
  // A change between two differently defined metrics is not a change of the server: say so.
  for (const d of differences) {
    const each = d.definitions.flatMap((definition, i) => (definition === null ? [] : [`${runs[i]!.id}: ${definition}`]));
    out.push(`* ${d.family} is defined differently: ${each.join('; ')}`);
  }
  // What the runs were run with, where it differs: a metric delta means little without it.
  const settings = settingDifferences(runs);
  for (const [title, rows] of [['arguments that differ', settings.args], ['launch configuration that differs', settings.launch]] as const) {
    if (rows.length === 0) continue;
    out.push(`${title}:`, formatTextTable(['SETTING', ...runs.map((r) => r.id)], rows.map((row) => [row.key, ...row.values.map((v) => v ?? '-')])), '');
  }
  out.push(...groupNoiseLines(runs, groupChecks), '');
  // Within each run: the spread between its requests, which says nothing of another run's.
  const names = { ttft_ms: 'mean TTFT', tpot_ms: 'mean TPOT' } as const;
  // Name the runs that left no records to test against, rather than blaming both sides.
  const lacking = runs.filter((run) => run.requestCount < 2).map((run) => run.id);
  if (lacking.length > 0) {
    const which = lacking.length === 1 ? `run ${lacking[0]} has` : `runs ${lacking.join(', ')} have`;
    out.push(`request spread: ${which} no per-request records (its source kept none); changes against it cannot be tested against the spread between requests`);
  } else if (checks.length === 0) {
    out.push('request spread: too few successful requests on one side to test');
  }
  for (const c of checks) {
    const verdict = c.beyondNoise ? 'CHANGED beyond the spread between requests' : 'within the spread between requests';
    out.push(
      `${names[c.metric]} ${runs[c.run]!.id} vs ${runs[0]!.id}: ${formatSigned(c.difference, 2)} ms ` +
        `(${formatConfidenceLevel(c.level)} Welch interval over requests ${c.low.toFixed(2)} .. ${c.high.toFixed(2)} ms, n=${c.samples[0]}/${c.samples[1]}): ${verdict}`,
    );
  }
  return sanitizeTerminal(out.join('\n'));
}
