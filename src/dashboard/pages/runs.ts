/** The runs list: filters (model, hardware, label, text) and a table whose rows can be ticked for comparison. */
import { deriveCards, deriveDatasetLabel, deriveHardware, shortModelName, type RunRecord, formatMetric, formatNumber, RUN_MODES } from '../../catalog/index.js';
import { html, type SafeHtml } from '../html.js';
import { page } from '../layout.js';
import type { RunQuery } from '../run-query.js';

export interface RunsPageData {
  /** Runs matching the query, newest first. */
  runs: readonly RunRecord[];
  /** Every run, for the filter choices. */
  allRuns: readonly RunRecord[];
  query: RunQuery;
  /** A malformed filter, shown instead of silently ignoring it. */
  error: string | null;
}

function distinct(values: readonly (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))].sort((a, b) => a.localeCompare(b));
}

function filterForm(data: RunsPageData): SafeHtml {
  const { query } = data;
  const models = distinct(data.allRuns.map(shortModelName));
  const hardware = distinct(data.allRuns.map((r) => deriveHardware(r)?.value));
  const labels = distinct(data.allRuns.flatMap((r) => Object.entries(r.labels).map(([k, v]) => `${k}=${v}`)));
  return html`<form class="filters" method="get" action="/runs" role="search">
<label>Model<input type="text" name="model" list="models" value="${query.model}" placeholder="any model"></label>
<datalist id="models">${models.map((m) => html`<option value="${m}">`)}</datalist>
<label>Hardware<select name="hardware"><option value="">any hardware</option>${hardware.map(
    (h) => html`<option value="${h}"${query.hardware === h ? html` selected` : ''}>${h}</option>`,
  )}</select></label>
<label>Label<input type="text" name="label" list="labels" value="${query.labels[0] ?? ''}" placeholder="key=value"></label>
<datalist id="labels">${labels.map((l) => html`<option value="${l}">`)}</datalist>
<label>Mode<select name="mode"><option value="">any mode</option>${RUN_MODES.map(
    (m) => html`<option value="${m}"${query.mode === m ? html` selected` : ''}>${m}</option>`,
  )}</select></label>
<label>Search<input type="text" name="q" value="${query.text}" placeholder="id, model, source, label"></label>
<button type="submit">Filter</button>
<a class="button plain" href="/runs">Clear</a>
</form>`;
}

function row(run: RunRecord, ticked: boolean): SafeHtml {
  const when = (run.startedAt ?? run.recordedAt).slice(0, 16).replace('T', ' ');
  const cards = deriveCards(run);
  const hardware = deriveHardware(run);
  // A run with warnings (a client or sim self-check that did not hold, failures, unreadable values) is flagged where it is listed.
  const suspect = run.warnings.length > 0;
  return html`<tr data-run="${run.id}" data-mode="${run.mode}"${suspect ? html` class="suspect"` : ''}>
<td><input type="checkbox" name="run" value="${run.id}" aria-label="select run ${run.id}"${ticked ? html` checked` : ''}></td>
<td><a href="/runs/${run.id}"><code>${run.id}</code></a></td>
<td class="nowrap">${when}</td>
<td class="mode">${run.mode}</td>
<td class="model" title="${run.model ?? ''}">${shortModelName(run) ?? '-'}</td>
<td title="${hardware?.how ?? ''}">${hardware?.value ?? '-'}</td>
<td class="num" title="${cards?.how ?? ''}">${cards ? String(cards.value) : '-'}</td>
<td class="nowrap">${deriveDatasetLabel(run) ?? '-'}</td>
<td class="num">${formatMetric(run.metrics.max_concurrency ?? run.args?.max_concurrency)}</td>
<td class="num">${formatNumber(run.metrics.output_throughput)}</td>
<td class="num">${formatNumber(run.metrics.mean_tpot_ms)}</td>
<td class="num">${formatNumber(run.metrics.mean_ttft_ms)}</td>
<td class="num">${run.requestCount}</td>
<td class="num"${suspect ? html` title="${run.warnings[0]!}"` : ''}>${suspect ? html`<span class="flag" aria-label="suspect run">⚠</span> ` : ''}${run.warnings.length}</td>
<td class="repeat nowrap"${run.repeat ? html` title="run ${String(run.repeat.run)} of ${String(run.repeat.runs)} of repeat group ${run.repeat.group}"` : ''}>${run.repeat ? `${run.repeat.run}/${run.repeat.runs}` : '-'}</td>
<td class="source">${run.source.title ?? run.source.file?.split('/').pop() ?? run.source.kind}</td>
</tr>`;
}

/** The runs as a table (rows in `ticked` pre-ticked) whose ticked rows a "Compare selected" button sends to the comparison page. */
export function runPickerForm(runs: readonly RunRecord[], ticked: readonly string[] = []): SafeHtml {
  return html`<form method="get" action="/compare"><div class="scroll"><table class="wide" id="runs">
<thead><tr><th></th><th>ID</th><th>When</th><th title="measured on a server, simulated against servebench's sim, or predicted">Mode</th><th>Model</th><th>Hardware</th><th class="num">Cards</th><th>Dataset</th><th class="num">Conc.</th><th class="num">Out tok/s</th><th class="num" title="mean time per output token">TPOT ms</th><th class="num" title="mean time to first token">TTFT ms</th><th class="num" title="per-request records">Records</th><th class="num">Warn.</th><th title="run k of N of a repeated measurement (bench --num-runs)">Repeat</th><th>Source</th></tr></thead>
<tbody>${runs.map((run) => row(run, ticked.includes(run.id)))}</tbody>
</table></div>
<p><button type="submit">Compare selected</button></p></form>`;
}

/** The runs list page. */
export function renderRunsPage(data: RunsPageData): string {
  const body = html`<h1>Runs</h1>
<p class="sub">Tick two or more runs to compare them side by side.</p>
${filterForm(data)}
${data.error ? html`<div class="error">${data.error}</div>` : ''}
<p class="count" id="run-count">${data.runs.length} of ${data.allRuns.length} run${data.allRuns.length === 1 ? '' : 's'}</p>
${
  data.runs.length === 0
    ? html`<div class="notice">No run matches. ${data.allRuns.length === 0 ? html`Record runs with <code>servebench bench</code> or <code>servebench ingest FILE</code>.` : html`<a href="/runs">Clear the filters</a>.`}</div>`
    : runPickerForm(data.runs)
}`;
  return page('Runs', 'runs', body);
}
