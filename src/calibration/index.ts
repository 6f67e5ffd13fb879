/**
 * The performance model fitted to published runs: the runs as cases, each predicted through the
 * predict pipeline, the factor fit and its cross-validation (leave-one-group-out and
 * leave-one-architecture-out). bench/predict-accuracy.ts drives it and writes the fit sim/model reads.
 */
export { fitAcceptance } from './acceptance.js';
export { type PredictedFigures, prepareCase, type PreparedCase, simulateCase } from './case-runner.js';
export type { PredictionCase } from './cases.js';
export { crossValidate, type FoldReport, foldsOf, type HeldOut, medianAbsoluteErrors, type Partition, relativeError } from './cross-validation.js';
export { fitFactors, type Metric, METRICS } from './fit.js';
export { pooledSimulator } from './simulator.js';
export { loadCaseFiles, trainingCases } from './training-set.js';
