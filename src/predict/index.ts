/** The predict subsystem's front door: what other subsystems may import from it. */
export { lengthOnlyWorkload, predictionWorkloads } from './bench-setup.js';
export { formatErrorPercent, formatExpectedErrorNote, formatExpectedErrorSection, sloErrorSuffix, throughputErrorSuffix } from './expected-error.js';
export { predictBench, predictableWorkload, runWorkload } from './prediction.js';
export type { Workload, WorkloadCache } from './workload-cache.js';
export { predictedMetrics } from './virtual/predicted-metrics.js';
export { deploymentDemand, servingDemand } from './virtual/serving-demand.js';
export { embeddedSimTarget } from './sim-target.js';
export { type PredictResult, predictRun } from './virtual/virtual-client.js';
