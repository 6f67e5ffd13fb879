/**
 * The bench pipeline's API for the commands: the parsed arguments' type (bench_serving's Namespace;
 * args/parse.ts parses the command line into it), resolving them into a run config, running it
 * (once, or as a session of runs against one target), and the errors and report that go with it.
 */
export { resolveRunConfig, type BenchRunConfig } from './run-config.js';
export { openBench, runBench, RunInterrupted, type BenchIo, type BenchSession } from './run-bench.js';
export type { BenchTarget } from './target.js';
export { ModelDiscoveryError } from './runner/discovery.js';
export { signalExitCode, signalName } from './runner/interrupt.js';
export { consoleReport } from './output/console-report.js';
export type { ResultKeepers, RunRecording } from './output/keep-results.js';
export { resolvedNamespace } from './args/resolved-namespace.js';
export { BACKEND_CHOICES, DATASET_CHOICES, type BackendName, type BenchArgs, type BenchExtensions } from './args/types.js';
export { chatBackend } from './backends/chat.js';
export { completionsBackend } from './backends/completions.js';
export { backendAdapter, runHeaders, type BackendAdapter, type RunHeaders } from './backends/index.js';
export { nativeBackend } from './backends/native.js';
export { serverReportFrom } from './backends/server-report.js';
export { LENGTH_ONLY_DATASETS, buildDataset, buildLengthOnlyDataset } from './datasets/index.js';
export { rowsFromLengths } from './datasets/rows.js';
export { calculateMetrics } from './metrics/calculate.js';
export { calculateExtras } from './metrics/extras.js';
export { perSecondTimeline, type TimedRequest, type Timeline } from './metrics/per-second.js';
export type { ServerMetricsSeries } from './server-metrics/summary.js';
export type { BenchmarkMetrics, ServebenchExtras } from './metrics/types.js';
export { NOISY_CV, REPEATED_FIGURES, summarizeRepeatedRuns, type FigureSummary, type RepeatedFigure, type RepeatedRunsSummary, type RepeatMembership } from './metrics/repeated-runs.js';
export { figureSummaryText } from './output/repeated-block.js';
export { formatResultBlock, sectionHeader, textLine } from './output/block.js';
export { formatExtendedBlock } from './output/extras-block.js';
export { appendJsonl, checkOutputFile, defaultOutputFileName } from './output/jsonl-file.js';
export { findResultBlocks, metricLabel, type LocatedBlock } from './output/parse-block.js';
export { createProgressBar } from './output/progress.js';
export { buildResultRecord } from './output/record.js';
export { dispatchSchedule } from './runner/dispatch.js';
export { InterruptWatch } from './runner/interrupt.js';
export { poissonSchedule } from './runner/schedule.js';
export { sendRequest } from './runner/send-request.js';
export { resolveTarget } from './target.js';
export { fetchRouterWorkersInfo, fetchServerInfo } from './transport/auxiliary.js';
export { nowSeconds } from './transport/clock.js';
export { HttpPool } from './transport/http-pool.js';
export type { Dataset, DatasetRow, RequestOutput } from './types.js';
export { formatNamespace } from './args/namespace.js';
export { BENCH_OPTIONS } from './args/options.js';
export { HelpRequested, parseBenchArgs, parseEmbeddedBenchArgs } from './args/parse.js';
export type { DemandLoad, SimTarget, StartedSim } from './sim-target.js';
export type { ServingDemand } from './runner/time-scale.js';
