/**
 * Charts embedded in dashboard pages as inline SVG. Each SVG's element ids are scoped, because
 * ECharts numbers its clip paths per renderer and two charts on one page would otherwise clash.
 */
import type { EChartsOption } from 'echarts';
import { renderSvg, type ChartSize } from '../plots/index.js';
import { html, trusted, type SafeHtml } from './html.js';

/** Prefixes every `id="…"` and its `url(#…)` / `href="#…"` references with `scope`. */
export function scopeSvgIds(svg: string, scope: string): string {
  return svg
    .replace(/\bid="([^"]+)"/g, `id="${scope}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${scope}-$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${scope}-$1"`);
}

const CHART_SIZE: ChartSize = { width: 760, height: 380 };

/**
 * A figure holding the chart, with a caption and an accessible label. A `single` chart stands
 * alone on its row and is kept to a readable width.
 */
export function chartFigure(scope: string, label: string, option: EChartsOption, caption: SafeHtml | string = '', single = false): SafeHtml {
  const svg = scopeSvgIds(renderSvg(option, CHART_SIZE), scope);
  return html`<figure class="chart${single ? ' single' : ''}" data-chart="${scope}" aria-label="${label}">${trusted(svg)}${caption ? html`<figcaption>${caption}</figcaption>` : ''}</figure>`;
}

/** The placeholder of a chart that cannot be drawn, saying why. */
export function missingChart(scope: string, label: string, reason: string): SafeHtml {
  return html`<figure class="chart missing-chart" data-chart="${scope}"><div class="missing"><strong>${label}</strong><br>not available: ${reason}</div></figure>`;
}
