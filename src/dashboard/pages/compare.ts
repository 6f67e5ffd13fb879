/**
 * Comparison of selected runs: their placement on throughput vs. TPOT, every metric side by side
 * with its change against the first run (coloured by whether it got better), and the noise check.
 */
import { formatConfidenceLevel } from '../../core/confidence.js';
import { compareMetrics, type GroupNoiseCheck, noiseChecks, settingDifferences, shortModelName, type MetricRow, type NoiseCheck, type RequestRecord, type RunRecord, type SettingDifference, formatMetric, formatSigned } from '../../catalog/index.js';
import { metricLabel } from '../../bench/index.js';
import { throughputPoints, throughputVsTpotOption } from '../../plots/index.js';
import { html, type SafeHtml } from '../html.js';
import { chartFigure, missingChart } from '../inline-chart.js';
import { page } from '../layout.js';
import { runPickerForm } from './runs.js';

/** +1 when a larger value is better, −1 when smaller is better, 0 when neither. */
export function metricDirection(key: string): 1 | -1 | 0 {
  if (key.endsWith('_ms')) return -1;
  if (/throughput|tokens_per_s|^completed$/.test(key)) return 1;
  return 0;
}

/** `+12.3%` with a class saying whether the change is an improvement. */
function changeCell(key: string, change: number | null): SafeHtml {
  if (change === null) return html``;
  const pct = change * 100;
  const direction = metricDirection(key) * Math.sign(change);
  const verdict = Math.abs(pct) < 0.05 || direction === 0 ? '' : direction > 0 ? 'better' : 'worse';
  return html` <span class="change ${verdict}">(${formatSigned(pct, 1)}%)</span>`;
}

function metricsTable(runs: readonly RunRecord[], rows: readonly MetricRow[]): SafeHtml {
  return html`<table id="comparison">
<thead><tr><th>Metric</th>${runs.map((r, i) => html`<th class="num"><a href="/runs/${r.id}"><code>${r.id}</code></a>${i === 0 ? ' (base)' : ''}<br><small>${shortModelName(r) ?? ''}</small></th>`)}</tr></thead>
<tbody>${rows.map(
    (row) => html`<tr data-metric="${row.key}"><th title="${row.key}">${metricLabel(row.key)}</th>${row.values.map(
      (v, i) => html`<td class="num">${formatMetric(v)}${changeCell(row.key, row.change[i] ?? null)}</td>`,
    )}</tr>`,
  )}</tbody></table>`;
}

/** The arguments and the launch configuration that differ between the runs, beside the metric deltas. */
function settingsSection(runs: readonly RunRecord[]): SafeHtml {
  const { args, launch } = settingDifferences(runs);
  const table = (id: string, title: string, rows: readonly SettingDifference[]): SafeHtml =>
    html`<h3>${title}</h3>${
      rows.length === 0
        ? html`<p class="sub" id="${id}">The same in every run.</p>`
        : html`<table id="${id}"><thead><tr><th>Setting</th>${runs.map((r) => html`<th><code>${r.id}</code></th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr data-setting="${row.key}"><th>${row.key}</th>${row.values.map((v) => html`<td>${v ?? '-'}</td>`)}</tr>`)}</tbody></table>`
    }`;
  return html`${table('args-diff', 'Benchmark arguments', args)}${table('launch-diff', 'Launch configuration', launch)}`;
}

/** `582.25 ± 9.84` */
function meanWithInterval(mean: number, halfWidth: number | null): string {
  return halfWidth === null ? mean.toFixed(2) : `${mean.toFixed(2)} ± ${halfWidth.toFixed(2)}`;
}

/**
 * Run-to-run noise: each compared group against the baseline's, figure by figure (Welch's test
 * over the groups' runs); a run measured once is said not to tell.
 */
function repeatSection(runs: readonly RunRecord[], checks: readonly GroupNoiseCheck[]): SafeHtml {
  const once = runs.filter((run) => !run.repeat || run.repeat.runs < 2);
  const onceNote = once.length
    ? html`<p class="sub" id="measured-once">${once.map((run) => html`<code>${run.id}</code> `)}${once.length === 1 ? 'was' : 'were'} measured once, and one run cannot tell a difference from run-to-run noise: measure each side with <code>--num-runs N</code> (N ≥ 2).</p>`
    : '';
  const tables = checks.map((check) => {
    const level = formatConfidenceLevel(check.level);
    return html`<h3>Group <code>${check.otherGroup}</code> vs. <code>${check.baselineGroup}</code> <small class="sub">Welch's test at ${level}</small></h3>
<table class="group-noise" data-run="${runs[check.run]!.id}"><thead><tr><th>Figure</th><th class="num">Baseline</th><th class="num">Other</th><th class="num">Difference</th><th class="num">${level} interval</th><th>Verdict</th></tr></thead>
<tbody>${check.figures.map(
      (f) => html`<tr data-figure="${f.figure.key}"><th>${f.figure.label.replace(/:$/, '')}</th><td class="num">${meanWithInterval(f.baseline.mean, f.baseline.halfWidth)}</td>
<td class="num">${meanWithInterval(f.other.mean, f.other.halfWidth)}</td><td class="num">${formatSigned(f.welch.difference, 2)}</td>
<td class="num">${f.welch.low.toFixed(2)} … ${f.welch.high.toFixed(2)}</td><td class="${f.welch.beyondNoise ? 'worse' : ''}">${f.welch.beyondNoise ? 'beyond noise' : 'within noise'}</td></tr>`,
    )}</tbody></table>`;
  });
  return html`${onceNote}${tables}`;
}

/** The spread between the requests of each run: what one run can say, which is not how much another run would differ. */
function noiseSection(runs: readonly RunRecord[], checks: readonly NoiseCheck[]): SafeHtml {
  const lacking = runs.filter((run) => run.requestCount < 2);
  if (lacking.length > 0) {
    return html`<p class="sub">${lacking.map((run) => html`<code>${run.id}</code> `)}kept no per-request records: changes against ${lacking.length === 1 ? 'it' : 'them'} cannot be tested against the spread between requests.</p>`;
  }
  if (checks.length === 0) {
    return html`<p class="sub">Too few successful requests on one side to test.</p>`;
  }
  const names = { ttft_ms: 'Mean TTFT', tpot_ms: 'Mean TPOT' } as const;
  return html`<table id="noise"><thead><tr><th>Metric</th><th>Run vs. base</th><th class="num">Difference (ms)</th><th class="num">95% Welch interval (ms)</th><th class="num">Samples</th><th>Verdict</th></tr></thead>
<tbody>${checks.map(
    (c) => html`<tr><td>${names[c.metric]}</td><td><code>${runs[c.run]!.id}</code></td><td class="num">${formatSigned(c.difference, 2)}</td>
<td class="num">${c.low.toFixed(2)} … ${c.high.toFixed(2)}</td><td class="num">${c.samples[0]} / ${c.samples[1]}</td>
<td class="${c.beyondNoise ? 'worse' : ''}">${c.beyondNoise ? 'changed beyond the spread' : 'within the spread'}</td></tr>`,
  )}</tbody></table>`;
}

/**
 * The comparison page. With fewer than two runs it offers every catalog run (`allRuns`) to pick
 * from, keeping the one already chosen ticked.
 */
export function renderComparePage(
  runs: readonly RunRecord[],
  requestsPerRun: readonly (readonly RequestRecord[])[],
  allRuns: readonly RunRecord[],
  groupChecks: readonly GroupNoiseCheck[] = [],
): string {
  if (runs.length < 2) {
    const body = html`<h1>Compare runs</h1>
<div class="notice">Pick at least two runs: tick them below and press <em>Compare selected</em>.</div>
${runPickerForm(allRuns, runs.map((r) => r.id))}`;
    return page('Compare', 'compare', body);
  }
  const { points, skipped } = throughputPoints(runs, false);
  const chart = points.length
    ? chartFigure('tput-vs-tpot', 'Output throughput vs. mean TPOT', throughputVsTpotOption(points, 'Output tok/s'), skipped.join('; '), true)
    : missingChart('tput-vs-tpot', 'Output throughput vs. mean TPOT', skipped.join('; '));
  const body = html`<h1>Compare ${runs.length} runs</h1>
<p class="sub">Changes are against the first run. Green is better, red is worse.</p>
${chart}
<h2>Metrics</h2>
${metricsTable(runs, compareMetrics(runs))}
<h2>What differs between the runs</h2>
${settingsSection(runs)}
<h2>Run-to-run noise</h2>
${repeatSection(runs, groupChecks)}
<h2>Spread between requests</h2>
${noiseSection(runs, noiseChecks(requestsPerRun))}
<p><a href="/api/compare${runs.length ? `?${runs.map((r) => `run=${r.id}`).join('&')}` : ''}">This comparison as JSON</a></p>`;
  return page('Compare', 'compare', body);
}
