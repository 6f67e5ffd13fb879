/** The plots subsystem's front door: what other subsystems may import from it. */
export { PLOT_KINDS, RUN_PLOT_KINDS, comparisonChartOption, runChartAvailability, runChartOption, throughputPoints, type PlotKind, type RunPlotKind } from './charts.js';
export { encodeChart, imageFormatOf, writeChart, writeThroughputPlots } from './export.js';
export { PALETTE, throughputVsTpotOption, type ThroughputPoint } from './options.js';
export { DEFAULT_SIZE, renderSvg, type ChartSize } from './render.js';
export { paretoFront, sweepChartOption, type SweepChartPoint, type SweepChartSeries } from './sweep-chart.js';
