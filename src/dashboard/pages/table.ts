/** The best-practice table page: runs grouped into latency classes by mean TPOT, with output tok/s per card. */
import { type ClassGroup, formatNumber, type RunMode } from '../../catalog/index.js';
import { throughputVsTpotOption, type ThroughputPoint } from '../../plots/index.js';
import { html, type SafeHtml } from '../html.js';
import { chartFigure } from '../inline-chart.js';
import { page } from '../layout.js';

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
<td>${row.dataset ?? '-'}</td><td>${row.quantization ?? '-'}</td><td class="num">${formatNumber(row.meanTpotMs)}</td>
<td class="num">${formatNumber(row.outputPerCard)}</td>${modes ? html`<td class="mode">${modes.get(row.runId) ?? '-'}</td>` : ''}<td><a href="/runs/${row.runId}">${row.recipe}</a></td></tr>`,
  )}</tbody></table></section>`;
}

/** The page: the per-card throughput vs. TPOT `points` chart, then one table per latency class. */
export function renderTablePage(
  groups: readonly ClassGroup[],
  points: readonly ThroughputPoint[],
  classesSpec: string,
  error: string | null,
  mode = 'measured',
  modeOfRun: ReadonlyMap<string, RunMode> = new Map(),
  suspect: ReadonlyMap<string, readonly string[]> = new Map(),
): string {
  const modes = [...modeOfRun.values()].some((m) => m !== 'measured') ? modeOfRun : null;
  const body = html`<h1>Best-practice table</h1>
<p class="sub">One row per run: output tokens/s per card at the run's mean TPOT, grouped into latency classes. Measured runs only unless another mode is chosen: simulations and predictions are plans, not best practice.</p>
<form class="filters" method="get" action="/table">
<label>Latency classes<input type="text" name="classes" value="${classesSpec}" size="48"></label>
<label>Runs<select name="mode">${['measured', 'simulated', 'predicted', 'all'].map(
    (m) => html`<option value="${m}"${mode === m ? html` selected` : ''}>${m === 'all' ? 'all modes' : m}</option>`,
  )}</select></label>
<button type="submit">Apply</button>
</form>
${error ? html`<div class="error">${error}</div>` : ''}
${groups.length === 0 ? html`<div class="notice">No runs in the catalog yet.</div>` : ''}
${points.length ? chartFigure('tput-per-card', 'Output tok/s per card vs. mean TPOT', throughputVsTpotOption(points, 'Output tok/s per card'), '', true) : ''}
${groups.map((group) => groupTable(group, modes, suspect))}
<p><a href="/api/table">This table as JSON</a></p>`;
  return page('Best-practice table', 'table', body);
}
