/** The sweep subsystem's front door: what other subsystems may import from it. */
export { parseLoadSeries, type LoadKind, type LoadSeries } from './load-series.js';
export { runLoadSweep } from './run-sweep.js';
export { formatSlo, parseSlo, type Slo, type SloTarget } from './slo.js';
export type { BenchFlagsParser, ConfigSearchPlan, HardwareChoice, OutputSpec, SearchSpec, SweepPlan, TargetSpec } from './sweep-plan.js';
export { formatRulelessTable } from './sweep-table.js';
export { measureAtFor, predictionTarget } from './sweep-target.js';
export { outputThroughput, peakPoint, runSeries, runSloSearch, type MeasureAt, type PointMeasurement, type SweepPoint } from './sweep.js';
