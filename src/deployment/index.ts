/**
 * The facts of a deployment, read alike by the sim, predict, the catalog and the configuration
 * search without loading an engine: SGLang's launch flags and their spellings, the hardware and
 * model catalogs, and the deployment type with what is derived from its instances.
 */
export { cardsFor, countDevices, type Deployment, deploymentDevices, type DeploymentFlags, type DeploymentInstance, deployMode, type DeployMode, instanceDevices, launchHardware, type LaunchDeployment, type LaunchInstance, nodesFor, roleCount, serverRole, type ServerRole, servers } from './deployment.js';
export { type FlagSpec, SGLANG_FLAGS, SIM_MODEL_FLAGS, SIM_SERVER_FLAGS, TRUTH_DEFAULTS, TRUTH_FLAGS } from './flags/effective-flags.js';
export { readHardwareSpec } from './flags/hardware-spec-file.js';
export { defaultLaunchConfig, parseLaunchArgs, sglangFlagName } from './flags/launch-flags.js';
export type { LaunchConfig, TruthOptions } from './launch-config.js';
export { type AttentionGeometry, getHardware, type HardwareFamily, hardwareForLabel, hardwareNames, type HardwareProfile, type ImageTokenRule, type ModelSpec, type QuantName, type VisionConfig } from './model/catalog.js';
export { fetchModelConfigs } from './model/fetch-model-config.js';
export { type ModelRequest, resolveModel } from './model/model-source.js';
export { kvElementBytes, mathPeak, type QuantFormat, quantizationFlagOf, quantOnHardware, resolveQuant } from './model/quantization.js';
export { hardwareInfo, type HardwareInfo, readServebenchInfo, type ReportedHardware, type ReportedSimulation, SERVEBENCH_INFO_KEY, type ServebenchInfo } from './server-info.js';
