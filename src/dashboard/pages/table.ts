/** The best-practice table page: runs grouped into latency classes by mean TPOT, with output tok/s per card. */
import { type ClassGroup, figureWithInterval, type RunMode } from '../../catalog/index.js';
import { throughputVsTpotOption, type ThroughputPoint } from '../../plots/index.js';
import { html, type SafeHtml } from '../html.js';
import { chartFigure } from '../inline-chart.js';
import { page } from '../layout.js';
import { formatConfidenceLevel } from '../../core/confidence.js';

/**
 * One latency class; with `modes` (a table that holds more than measured runs) a Mode column says
 * what each row is; a suspect run's row (`suspect`: run id → its warnings) is flagged.
 */
function groupTable(group: ClassGroup, modes: ReadonlyMap<string, RunMode> | null, suspect: ReadonlyMap<string, readonly string[]>): SafeHtml {
  const bound = group.latencyClass.maxTpotMs;
  return html`<section class="latency-class" data-class="${group.latencyClass.name}">
<h2>${group.latencyClass.name}${bound === null ? '' : ` (mean TPOT ≤ ${bound} ms)`}</h2>
<table class="wide best-practice"><thead><tr><th>Model</th><th>Hardware</th><th class="num">Cards</th><th>Deploy mode</th><th>Dataset</th><th>Quantization</th><th class="num">Mean TPOT (ms)</th><th class="num">Output tok/s per card</th>${modes ? html`<th>Mode</th>` : ''}<th>Recipe</th></tr></thead>
<tbody>${group.rows.map(
    (row) => html`<tr data-run="${row.runId}"${suspect.has(row.runId) ? html` class="suspect" title="${suspect.get(row.runId)!.join('; ')}"` : ''}><td>${suspect.has(row.runId) ? html`<span class="flag" aria-label="suspect run">⚠</span> ` : ''}${row.model ?? '-'}</td><td>${row.hardware ?? '-'}</td>
<td class="num" title="${row.cardsHow ?? ''}">${row.cards === null ? '-' : String(row.cards)}</td><td>${row.deployMode ?? '-'}</td>
<td>${row.dataset ?? '-'}</td><td>${row.quantization ?? '-'}</td><td class="num">${figureWithInterval(row, 'meanTpotMs')}</td>
<td class="num">${figureWithInterval(row, 'outputPerCard')}</td>${modes ? html`<td class="mode">${modes.get(row.runId) ?? '-'}</td>` : ''}<td><a href="/runs/${row.runId}">${row.recipe}</a>${row.alternatives ? html` <small class="alternatives">(best of ${row.alternatives + 1} runs)</small>` : ''}${
      row.interval ? html` <small class="repeat" title="means over the group's runs ± the half-width of their ${formatConfidenceLevel(row.interval.level)} confidence interval">(mean of ${String(row.interval.runs)} runs)</small>` : ''
    }</td></tr>`,
  )}</tbody></table></section>`;
}

/** What the table shows: which modes, every run or the best of each configuration, each run's mode, the suspect runs and why. */
export interface TableView {
  mode: string;
  everyRun: boolean;
  modeOfRun: ReadonlyMap<string, RunMode>;
  suspect: ReadonlyMap<string, readonly string[]>;
}

/** The page: the per-card throughput vs. TPOT `points` chart, then one table per latency class. */
export function renderTablePage(
  groups: readonly ClassGroup[],
  points: readonly ThroughputPoint[],
  classesSpec: string,
  error: string | null,
  view: TableView = { mode: 'measured', everyRun: true, modeOfRun: new Map(), suspect: new Map() },
): string {
  const { mode, everyRun, modeOfRun, suspect } = view;
  const modes = [...modeOfRun.values()].some((m) => m !== 'measured') ? modeOfRun : null;
  const body = html`<h1>Best-practice table</h1>
<p class="sub">Output tokens/s per card at the run's mean TPOT, grouped into latency classes; one row per configuration (its best run) unless every run is asked for. Measured runs only unless another mode is chosen: simulations and predictions are plans, not best practice.</p>
<form class="filters" method="get" action="/table">
<label>Latency classes<input type="text" name="classes" value="${classesSpec}" size="48"></label>
<label>Runs<select name="mode">${['measured', 'simulated', 'predicted', 'all'].map(
    (m) => html`<option value="${m}"${mode === m ? html` selected` : ''}>${m === 'all' ? 'all modes' : m}</option>`,
  )}</select></label>
<label>Rows<select name="rows"><option value="best"${everyRun ? '' : html` selected`}>best run per configuration</option><option value="all"${everyRun ? html` selected` : ''}>every run</option></select></label>
<button type="submit">Apply</button>
</form>
${error ? html`<div class="error">${error}</div>` : ''}
${groups.length === 0 ? html`<div class="notice">No runs in the catalog yet.</div>` : ''}
${points.length ? chartFigure('tput-per-card', 'Output tok/s per card vs. mean TPOT', throughputVsTpotOption(points, 'Output tok/s per card'), '', true) : ''}
${groups.map((group) => groupTable(group, modes, suspect))}
<p><a href="/api/table">This table as JSON</a></p>`;
  return page('Best-practice table', 'table', body);
}
