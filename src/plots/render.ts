/**
 * Renders chart options to SVG with ECharts' server-side renderer (no DOM, no canvas) and SVG to
 * PNG with resvg and the system fonts. Only the chart kinds servebench draws are registered, which
 * keeps the import light.
 */
import type { EChartsOption } from 'echarts';
import { init, use } from 'echarts/core';
import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent } from 'echarts/components';
import { LabelLayout } from 'echarts/features';
import { SVGRenderer } from 'echarts/renderers';
import { Resvg } from '@resvg/resvg-js';

use([LineChart, BarChart, ScatterChart, GridComponent, LegendComponent, TitleComponent, LabelLayout, SVGRenderer]);

export interface ChartSize {
  width: number;
  height: number;
}

export const DEFAULT_SIZE: ChartSize = { width: 900, height: 420 };

/** The chart as a standalone SVG document (text from the option is XML-escaped by ECharts). */
export function renderSvg(option: EChartsOption, size: ChartSize = DEFAULT_SIZE): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width: size.width, height: size.height });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    // Disposing stops ECharts' animation loop, which would otherwise keep the process alive.
    chart.dispose();
  }
}

/** Rasterises an SVG at `scale`× its size on a white background (PNG bytes). */
export function svgToPng(svg: string, scale = 2): Buffer {
  const resvg = new Resvg(svg, {
    background: '#ffffff',
    fitTo: { mode: 'zoom', value: scale },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
