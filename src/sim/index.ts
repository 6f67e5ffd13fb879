/** The sim subsystem's front door: what other subsystems may import from it. */
export { createDisaggregatedEngine, createEngine, type SimEngine } from './engine/index.js';
export { deploymentCards, deploymentHardware, describeDeployment, parseDeployment } from './deployment/launch-deployment.js';
export { resolveInstance } from './model/resolve-instance.js';
export { storedCrossValidation, type Calibration, type CrossValidationSummary } from './model/efficiency.js';
export { explainStep } from './model/explain.js';
export { startDedicatedSim, startEmbeddedSim, type SimThreadHandle } from './server/sim-thread.js';
export { judgeSimWrites, worstLateness, type LatenessSummary } from './truth/lateness-verdict.js';
export { bodyRateForPopulation } from './engine/speculative.js';
export { acceptanceTable, type AcceptanceTable } from './model/acceptance-table.js';
export { DEFAULT_ACCEPTANCE, DEFAULT_FACTORS, FACTOR_SPECS, fittableFactors, type FittedFile } from './model/efficiency.js';
export type { ResolvedInstance } from './model/resolve-instance.js';
export { createSimEngine, resolveSimDeployment } from './server/sim-engine.js';
export { TimeHeap } from './truth/time-heap.js';
export type { Engine, EngineStats, TokenEmission } from './types.js';
