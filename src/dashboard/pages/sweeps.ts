/**
 * Sweeps: every load series the catalog holds (runs labelled `sweep=ID` by `servebench sweep`), and
 * a view of one or more of them overlaid: output tok/s per card against mean TPOT and mean TTFT,
 * points labelled by load, the Pareto front ringed, measured and predicted curves side by side.
 */
import { deriveCards, deriveHardware, formatNumber, shortModelName, type RunMode, type RunRecord } from '../../catalog/index.js';
import { sweepChartOption, type SweepChartSeries } from '../../plots/index.js';
import { html, type SafeHtml } from '../html.js';
import { chartFigure } from '../inline-chart.js';
import { page } from '../layout.js';

/** One sweep: its id, what it measured, and its points in load order. */
export interface Sweep {
  id: string;
  mode: RunMode;
  model: string | null;
  hardware: string | null;
  /** `concurrency` or `req/s`. */
  loadName: string;
  points: { load: number; label: string; run: RunRecord; perCard: number | null }[];
}

function loadOf(run: RunRecord): number {
  const text = run.labels.sweep_load ?? '';
  return text === 'inf' ? Infinity : Number(text);
}

/** The sweeps among `runs`, newest first (a sweep's id carries its start time). */
export function sweepsOf(runs: readonly RunRecord[]): Sweep[] {
  const byId = new Map<string, RunRecord[]>();
  for (const run of runs) {
    const id = run.labels.sweep;
    if (id === undefined || Number.isNaN(loadOf(run))) continue;
    byId.set(id, [...(byId.get(id) ?? []), run]);
  }
  return [...byId.entries()]
    .map(([id, members]): Sweep => {
      const first = members[0]!;
      const points = members
        .map((run) => {
          const cards = deriveCards(run)?.value ?? 1;
          const throughput = run.metrics.output_throughput;
          return { load: loadOf(run), label: run.labels.sweep_load!, run, perCard: typeof throughput === 'number' ? throughput / cards : null };
        })
        .sort((a, b) => a.load - b.load);
      const byRate = first.args?.max_concurrency === null || first.args?.max_concurrency === undefined;
      return { id, mode: first.mode, model: shortModelName(first), hardware: deriveHardware(first)?.value ?? null, loadName: byRate ? 'req/s' : 'concurrency', points };
    })
    .sort((a, b) => b.id.localeCompare(a.id));
}

function sweepTitle(sweep: Sweep): string {
  return `${sweep.mode} · ${sweep.model ?? 'unknown model'}${sweep.hardware ? ` on ${sweep.hardware}` : ''} · ${sweep.id}`;
}

function sweepList(sweeps: readonly Sweep[]): SafeHtml {
  return html`<form method="get" action="/sweeps"><table class="wide" id="sweeps">
<thead><tr><th></th><th>Sweep</th><th>Mode</th><th>Model</th><th>Hardware</th><th>Loads</th><th class="num">Best tok/s per card</th></tr></thead>
<tbody>${sweeps.map((sweep) => {
    const best = Math.max(...sweep.points.map((p) => p.perCard ?? 0));
    return html`<tr data-sweep="${sweep.id}" data-mode="${sweep.mode}"><td><input type="checkbox" name="sweep" value="${sweep.id}" aria-label="select sweep ${sweep.id}"></td>
<td><a href="/sweeps?sweep=${encodeURIComponent(sweep.id)}"><code>${sweep.id}</code></a></td><td>${sweep.mode}</td><td>${sweep.model ?? '-'}</td><td>${sweep.hardware ?? '-'}</td>
<td>${sweep.loadName} ${sweep.points.map((p) => p.label).join(', ')}</td><td class="num">${formatNumber(best)}</td></tr>`;
  })}</tbody></table>
<p><button type="submit">Overlay selected</button></p></form>`;
}

function pointsTable(sweeps: readonly Sweep[]): SafeHtml {
  return html`<table class="wide" id="sweep-points"><thead><tr><th>Sweep</th><th>Load</th><th class="num">Output tok/s per card</th><th class="num">Mean TPOT (ms)</th><th class="num">Mean TTFT (ms)</th><th>Run</th></tr></thead>
<tbody>${sweeps.flatMap((sweep) =>
    sweep.points.map(
      (p) => html`<tr data-sweep="${sweep.id}"><td>${sweep.mode} · <code>${sweep.id}</code></td><td>${sweep.loadName} ${p.label}</td><td class="num">${formatNumber(p.perCard)}</td>
<td class="num">${formatNumber(p.run.metrics.mean_tpot_ms)}</td><td class="num">${formatNumber(p.run.metrics.mean_ttft_ms)}</td><td><a href="/runs/${p.run.id}"><code>${p.run.id}</code></a></td></tr>`,
    ),
  )}</tbody></table>`;
}

/** The page: the chosen sweeps overlaid (`chosen` empty: the list to choose from). */
export function renderSweepsPage(all: readonly Sweep[], chosen: readonly Sweep[], error: string | null): string {
  if (chosen.length === 0) {
    const body = html`<h1>Sweeps</h1>
<p class="sub">Load series recorded by <code>servebench sweep</code> (measured, against the sim, or predicted). Tick several to overlay them.</p>
${error ? html`<div class="error">${error}</div>` : ''}
${all.length === 0 ? html`<div class="notice">No sweep in the catalog yet: run <code>servebench sweep</code>.</div>` : sweepList(all)}`;
    return page('Sweeps', 'sweeps', body);
  }
  const series: SweepChartSeries[] = chosen.map((sweep) => ({
    name: `${sweep.mode} · ${sweep.id}`,
    // Per card already: each sweep's own card count divides its throughput.
    points: sweep.points.map((p) => ({ label: p.label, metrics: { ...p.run.metrics, output_throughput: p.perCard } })),
  }));
  const loadName = [...new Set(chosen.map((sweep) => sweep.loadName))].join(' / ');
  const option = sweepChartOption({ title: chosen.length === 1 ? sweepTitle(chosen[0]!) : `${chosen.length} sweeps overlaid`, loadName, cards: 1, series });
  const body = html`<h1>${chosen.length === 1 ? 'Sweep' : 'Sweeps overlaid'}</h1>
<p class="sub">${chosen.map((sweep) => html`<span class="chips"><span>${sweepTitle(sweep)}</span></span> `)}<a href="/sweeps">all sweeps</a></p>
${chartFigure('sweep', 'Output tok/s per card against mean TPOT and mean TTFT', option, 'Up and to the left is better; ringed points form each curve’s Pareto front.', true)}
${pointsTable(chosen)}`;
  return page('Sweeps', 'sweeps', body);
}
