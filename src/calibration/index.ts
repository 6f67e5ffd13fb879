/**
 * The performance model fitted to published runs: the runs as cases, each predicted through the
 * predict pipeline, the factor fit and its leave-one-group-out cross-validation. bench/predict-accuracy.ts
 * drives it and writes the fit sim/model reads.
 */
export { fitAcceptance } from './acceptance.js';
export { type PredictedFigures, prepareCase, type PreparedCase, simulateCase } from './case-runner.js';
export type { PredictionCase } from './cases.js';
export { crossValidate, groupsOf, type HeldOut, medianAbsoluteErrors, relativeError } from './cross-validation.js';
export { fitFactors, type Metric, METRICS } from './fit.js';
export { pooledSimulator } from './simulator.js';
export { loadCaseFiles, trainingCases } from './training-set.js';
