/** The sim subsystem's front door: what other subsystems may import from it. */
export { createDisaggregatedEngine, createEngine, type SimEngine } from './engine/index.js';
export {
  cardsFor,
  countDevices,
  deployMode,
  deploymentDevices,
  instanceDevices,
  nodesFor,
  serverRole,
  servers,
  type Deployment,
  type DeploymentFlags,
  type DeploymentInstance,
  type DeployMode,
  type LaunchDeployment,
  type LaunchInstance,
  type ServerRole,
} from './deployment/deployment.js';
export { deploymentCards, deploymentHardware, describeDeployment, parseDeployment } from './deployment/launch-deployment.js';
export { SGLANG_FLAGS, SIM_MODEL_FLAGS, SIM_SERVER_FLAGS, TRUTH_DEFAULTS, TRUTH_FLAGS, type FlagSpec } from './flags/effective-flags.js';
export { readHardwareSpec } from './flags/hardware-spec-file.js';
export { defaultLaunchConfig, parseLaunchArgs, sglangFlagName } from './flags/launch-flags.js';
export { getHardware, hardwareForLabel, hardwareNames, type HardwareProfile, type ModelSpec } from './model/catalog.js';
export { resolveInstance } from './model/resolve-instance.js';
export { storedCrossValidation, type Calibration, type CrossValidationSummary } from './model/efficiency.js';
export { explainStep } from './model/explain.js';
export { resolveModel } from './model/model-source.js';
export { predictRun, type PredictResult } from './predict/index.js';
export { predictedMetrics } from './predict/predicted-metrics.js';
export { servingDemand, type ServingDemand } from './predict/serving-demand.js';
export { startDedicatedSim, startEmbeddedSim, type SimThreadHandle } from './server/sim-thread.js';
export { judgeSimWrites, type LatenessSummary } from './truth/lateness-verdict.js';
export type { LaunchConfig } from './types.js';
