/** One run: headline figures, facts, warnings, its plots (the per-request timeline among them), every metric, and its configuration. */
import { deriveCards, deriveDatasetLabel, deriveDeployMode, deriveHardware, deriveQuantization, instanceFacts, shortModelName, type RequestRecord, type RunRecord, accuracyText, isEvalRun, type LinkedRun, formatMetric, TEXT_METRICS, formatNumber } from '../../catalog/index.js';
import { figureSummaryText, metricLabel, type RepeatedRunsSummary } from '../../bench/index.js';
import { RUN_PLOT_KINDS, runChartAvailability, runChartOption, type RunPlotKind } from '../../plots/index.js';
import { html, type HtmlValue, type SafeHtml } from '../html.js';
import { chartFigure, missingChart } from '../inline-chart.js';
import { page } from '../layout.js';

const PLOT_TITLES: Record<RunPlotKind, string> = {
  throughput: 'Output tokens per second',
  concurrency: 'Concurrent requests',
  ttft: 'TTFT distribution',
  itl: 'ITL distribution',
  timeline: 'Requests over the run: queue, time to first token, decode',
  server: "The server's side: running, queued, KV cache, generation (its /metrics)",
};

/** A value as text for a table cell: JSON for objects, `inf` for Infinity. */
function cellText(value: unknown): string {
  if (typeof value === 'number' || value === null || value === undefined || typeof value === 'string') return formatMetric(value);
  return JSON.stringify(value);
}

const card = (key: string, label: string, value: string): SafeHtml =>
  html`<div class="card" data-metric="${key}"><div class="v">${value}</div><div class="k">${label}</div></div>`;

/** An eval run's figures: SGLang's four lines and the counts behind them. */
function evalHeadline(run: RunRecord): SafeHtml {
  const synthetic = run.metrics.answers === 'synthetic';
  return html`<div class="cards">
${card('accuracy', `Accuracy (${String(run.metrics.task)})`, accuracyText(run))}
${card('invalid', 'Invalid', synthetic ? 'n/a (sim)' : formatNumber(run.metrics.invalid, 3))}
${card('latency', 'Latency (s)', formatNumber(run.metrics.latency, 3))}
${card('output_throughput', 'Output tok/s', formatNumber(run.metrics.output_throughput))}
${card('questions', 'Questions', formatMetric(run.metrics.questions))}
${card('failed', 'Failed requests', formatMetric(run.metrics.failed))}
</div>`;
}

function headline(run: RunRecord): SafeHtml {
  if (isEvalRun(run)) return evalHeadline(run);
  return html`<div class="cards">
${card('output_throughput', 'Output tok/s', formatNumber(run.metrics.output_throughput))}
${card('mean_tpot_ms', 'Mean TPOT (ms)', formatNumber(run.metrics.mean_tpot_ms))}
${card('mean_ttft_ms', 'Mean TTFT (ms)', formatNumber(run.metrics.mean_ttft_ms))}
${card('max_output_tokens_per_s', 'Peak output tok/s', formatNumber(run.metrics.max_output_tokens_per_s))}
${card('completed', 'Successful requests', formatMetric(run.metrics.completed))}
${card('duration', 'Duration (s)', formatNumber(run.metrics.duration))}
</div>`;
}

function facts(run: RunRecord): SafeHtml {
  const hardware = deriveHardware(run);
  const cards = deriveCards(run);
  const quantization = deriveQuantization(run);
  const entry = (term: string, value: HtmlValue): SafeHtml => html`<dt>${term}</dt><dd>${value === null || value === undefined || value === '' ? '-' : value}</dd>`;
  return html`<dl class="facts">
${entry('Model', run.model)}
${entry('Hardware', hardware ? `${hardware.value} (${hardware.how})` : null)}
${entry('Cards', cards ? `${cards.value} (${cards.how})` : null)}
${entry('Deploy mode', deriveDeployMode(run))}
${entry('Dataset', deriveDatasetLabel(run))}
${entry('Quantization', quantization ? `${quantization.value} (${quantization.how})` : null)}
${entry('Source', `${run.source.kind}${run.source.file ? ` ${run.source.file}` : ''}`)}
${entry('Recorded', run.recordedAt)}
${entry('Started', run.startedAt)}
${entry('Tool', run.toolVersion)}
${entry('Per-request records', String(run.requestCount))}
${entry('Labels', Object.keys(run.labels).length ? html`<span class="chips">${Object.entries(run.labels).map(([k, v]) => html`<span>${k}=${v}</span>`)}</span>` : null)}
</dl>`;
}

function plots(run: RunRecord, requests: readonly RequestRecord[]): SafeHtml {
  const reasons = RUN_PLOT_KINDS.map((kind) => runChartAvailability(kind, requests, run));
  // One reason for every plot (typically: a console log has no per-request records) is said once.
  if (reasons[0] && reasons.every((r) => r === reasons[0])) return html`<div class="notice" id="no-plots">No plots: ${reasons[0]}.</div>`;
  const figures = RUN_PLOT_KINDS.map((kind, i) => {
    const reason = reasons[i];
    if (reason) return missingChart(kind, PLOT_TITLES[kind], reason);
    const caption = html`<a href="/runs/${run.id}/plots/${kind}.svg">SVG</a> · <a href="/runs/${run.id}/plots/${kind}.png">PNG</a>`;
    return chartFigure(kind, PLOT_TITLES[kind], runChartOption(kind, run, requests), caption);
  });
  return html`<div class="plots">${figures}</div>`;
}

/** Rows of `key: value`; `label` names a key for a reader (metrics by their result-block label, the raw key in the tooltip). */
function keyValueTable(id: string, rows: readonly [string, unknown][], emptyText: string, label: (key: string) => string = (key) => key): SafeHtml {
  if (rows.length === 0) return html`<p class="sub">${emptyText}</p>`;
  return html`<table id="${id}"><tbody>${rows.map(
    ([k, v]) => html`<tr data-key="${k}"><th title="${k}">${label(k)}</th><td class="${typeof v === 'number' ? 'num' : ''}">${cellText(v)}</td></tr>`,
  )}</tbody></table>`;
}

function recipe(run: RunRecord): SafeHtml {
  if (!run.recipe) return html`<p class="sub">No launch command was recorded with this run.</p>`;
  const env = Object.entries(run.recipe.env);
  return html`<p class="sub">origin: ${run.recipe.origin}</p>
${env.length ? html`<pre>${env.map(([k, v]) => `export ${k}=${v}\n`)}</pre>` : ''}
${run.recipe.instances.map((instance) => {
  const flags = Object.entries(instance.flags);
  // A server that reported itself gave its settings, not a command line: show those.
  const lines = flags.length > 0 ? flags.map(([k, v]) => (v === true ? k : `${k} ${v}`)) : Object.entries(instanceFacts(instance)).map(([k, v]) => `${k}=${cellText(v)}`);
  return html`<h3>${instance.role} <small class="sub">${instance.launcher}</small></h3>
<pre>${lines.map((line) => `${line}\n`)}</pre>`;
})}`;
}

/** The runs of the same server configuration: accuracy beside a performance run, performance beside an eval run. */
function linkedSection(run: RunRecord, linked: readonly LinkedRun[]): SafeHtml {
  if (linked.length === 0 && !isEvalRun(run)) return html``;
  const empty = 'No performance run of this server configuration is in the catalog yet.';
  return html`<h2>Same server configuration</h2>
${linked.length === 0 ? html`<p class="sub">${empty}</p>` : html`<ul id="linked">${linked.map((other) => html`<li><a href="/runs/${other.id}"><code>${other.id}</code></a> ${other.summary}</li>`)}</ul>`}`;
}

/** The run's repeat group: its runs (this one marked), and each figure's mean ± interval and CV over them. */
function repeatSection(run: RunRecord, group: readonly RunRecord[], summary: RepeatedRunsSummary | null): SafeHtml {
  if (!run.repeat) return html``;
  const runs = group.map((member) => (member.id === run.id ? html`<strong><code>${member.id}</code></strong>` : html`<a href="/runs/${member.id}"><code>${member.id}</code></a>`));
  return html`<h2>Repeated runs</h2>
<p class="sub">Run ${String(run.repeat.run)} of ${String(run.repeat.runs)} of repeat group <code>${run.repeat.group}</code>: ${runs.map((link) => html`${link} `)}</p>
${
  summary !== null && summary.runs >= 2
    ? html`<table id="repeat-group"><thead><tr><th>Figure</th><th>Over the runs</th></tr></thead><tbody>${summary.figures.map(
        (f) => html`<tr data-figure="${f.figure.key}"><th>${f.figure.label.replace(/:$/, '')}</th><td class="num">${figureSummaryText(f, summary.level)}</td></tr>`,
      )}</tbody></table>`
    : ''
}`;
}

/** The client's and the sim's verdicts on their own timing, as `servebench bench` printed them (runs measured by servebench only). */
function selfChecks(run: RunRecord): SafeHtml {
  const lines = [...TEXT_METRICS].map((key) => run.metrics[key]).filter((line): line is string => typeof line === 'string');
  return lines.length === 0 ? html`` : html`<div class="sub" id="self-check">${lines.map((line) => html`<p>${line}</p>`)}</div>`;
}

/**
 * The run detail page; `linked` are the runs of the same server configuration (`linkedRuns`);
 * `group` the runs of its repeat group, `groupSummary` over them.
 */
export function renderRunPage(
  run: RunRecord,
  requests: readonly RequestRecord[],
  linked: readonly LinkedRun[] = [],
  group: readonly RunRecord[] = [],
  groupSummary: RepeatedRunsSummary | null = null,
): string {
  const figures = Object.fromEntries(Object.entries(run.metrics).filter(([key]) => !TEXT_METRICS.has(key)));
  const body = html`<h1>${shortModelName(run) ?? 'unknown model'}</h1>
<p class="sub">run <code>${run.id}</code>${run.source.title ? ` · ${run.source.title}` : ''}</p>
${headline(run)}
${selfChecks(run)}
${
  run.warnings.length
    ? html`<div class="warnings" id="warnings"><strong>Warnings</strong><ul>${run.warnings.map((w) => html`<li>${w}</li>`)}</ul></div>`
    : ''
}
${repeatSection(run, group, groupSummary)}
${linkedSection(run, linked)}
<h2>Plots</h2>
${plots(run, requests)}
<div class="cols">
<section><h2>Metrics</h2>${keyValueTable('metrics', Object.entries(figures), 'No metrics.', metricLabel)}</section>
<section><h2>Facts</h2>${facts(run)}
<h2>Benchmark arguments</h2>${
  run.args
    ? html`<details><summary>${Object.keys(run.args).length} arguments</summary>${keyValueTable('args', Object.entries(run.args), '')}</details>`
    : html`<p class="sub">The source did not state the arguments.</p>`
}</section>
</div>
<h2>Deployment</h2>
${recipe(run)}
${Object.keys(run.environment).length ? html`<h2>Environment</h2>${keyValueTable('environment', Object.entries(run.environment), '')}` : ''}
<p><a href="/api/runs/${run.id}">This run as JSON</a></p>`;
  return page(`Run ${run.id}`, 'runs', body);
}
