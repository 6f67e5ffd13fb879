/**
 * The catalog's public API: open a catalog, record runs, query them.
 * Plots, the dashboard and `servebench bench` import from here.
 */
export { openCatalog, Catalog, runIdFor } from './store/catalog.js';
export type { OpenCatalogOptions } from './store/catalog.js';
export { resolveCatalogPath } from './store/paths.js';
export { runInputFromBench, requestRecordsFromOutputs } from './from-bench.js';
export type { BenchRunParts } from './from-bench.js';
export type {
  DeploymentFlags,
  EvalRunMetrics,
  MetricValue,
  RecipeConfig,
  RecipeInstance,
  RecordOutcome,
  RequestRecord,
  ServerMetricsRecord,
  RunFilter,
  RunInput,
  RunRecord,
  RunSource,
} from './types.js';
export { deriveCards, deriveDatasetLabel, deriveDeployMode, deriveHardware, deriveQuantization, instanceFacts, shortModelName, formatLength } from './report/run-facts.js';
export { bestPerConfiguration, bestPracticeRow, groupByLatencyClass, parseClasses, DEFAULT_CLASSES } from './report/best-practice.js';
export type { BestPracticeRow, ClassGroup, LatencyClass } from './report/best-practice.js';
export { compareMetrics, noiseChecks, requestTtftsMs, requestTpotsMs, settingDifferences } from './report/compare.js';
export type { MetricRow, NoiseCheck, SettingDifference, SettingDifferences } from './report/compare.js';
export { repeatGroupChecks, summarizeGroup, type FigureNoiseCheck, type GroupNoiseCheck } from './report/repeat-groups.js';
export { escapeHtml } from './report/escape.js';
export { splitLabelPair } from '../core/label-pair.js';
export { parseDeploymentInstance } from './ingest/launch-config.js';
export { readRunsFromText } from './ingest/read-runs.js';
export { recipeFromServerInfo } from './ingest/server-info.js';
export { reportsSimServer, serverInfoWithWorkers } from './ingest/server-bodies.js';
export { SELF_CHECK_METRIC, SIM_SELF_CHECK_METRIC, TEXT_METRICS } from './ingest/jsonl.js';
export { figureWithInterval, renderBestPractice, type ExtraColumn, type TableFormat } from './report/best-practice-render.js';
export { accuracyColumns, accuracyText, isEvalRun, linkedRuns, type LinkedRun } from './report/eval-runs.js';
export { formatComparison, formatRunDetails, formatRunList } from './report/run-views.js';
export { formatMetric, formatNumber, formatSigned, formatTextTable } from './report/text-table.js';
export { encodeJson } from './store/json-codec.js';
export { recordBenchRun } from './record-bench.js';
export { readIngestFiles } from './ingest/read-files.js';
export { RUN_MODES, runModeOf, type RunMode } from './run-mode.js';
export { suspectWarnings } from './suspect.js';
