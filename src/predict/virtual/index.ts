/** Virtual-time bench client: predicts a bench_serving run against the simulated engine. */
export { predictRun, type PredictOptions, type PredictResult } from './virtual-client.js';
export { predictedMetrics } from './predicted-metrics.js';
