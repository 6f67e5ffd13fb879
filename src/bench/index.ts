/**
 * The bench pipeline's API for the commands: resolve the parsed arguments into a run config, run
 * it (once, or as a session of runs against one target), and the errors and report that go with it.
 */
export { resolveRunConfig, type BenchRunConfig } from './run-config.js';
export { openBench, runBench, RunInterrupted, type BenchIo, type BenchSession } from './run-bench.js';
export type { BenchTarget } from './target.js';
export { ModelDiscoveryError } from './runner/discovery.js';
export { signalExitCode, signalName } from './runner/interrupt.js';
export { consoleReport } from './output/console-report.js';
export type { ResultKeepers } from './output/keep-results.js';
