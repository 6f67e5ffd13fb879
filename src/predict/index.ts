/** The predict subsystem's front door: what other subsystems may import from it. */
export { lengthOnlyWorkload, predictionWorkloads, resolveWorkloadFlags, type WorkloadFlags } from './bench-setup.js';
export { formatErrorPercent, formatExpectedErrorNote, formatExpectedErrorSection, sloErrorSuffix, throughputErrorSuffix } from './expected-error.js';
export { predictBench, predictableWorkload, runWorkload } from './prediction.js';
export type { Workload, WorkloadCache } from './workload-cache.js';
