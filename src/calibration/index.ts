/** The calibration subsystem's front door: what other subsystems may import from it. */
export { fitAcceptance } from './acceptance.js';
export { type PredictedFigures, prepareCase, type PreparedCase, simulateCase } from './case-runner.js';
export type { PredictionCase } from './cases.js';
export { crossValidate, groupsOf, type HeldOut, medianAbsoluteErrors, relativeError } from './cross-validation.js';
export { fitFactors, type Metric, METRICS } from './fit.js';
export { pooledSimulator } from './simulator.js';
export { loadCaseFiles, trainingCases } from './training-set.js';
