/**
 * What a deployment is, in one place: its instances, each with the role it plays and the launch
 * flags that shape performance. Predict, sweep, the configuration search and the calibration hold
 * deployments parsed from launch flags (every fact known, as a LaunchConfig: launch-deployment.ts);
 * the catalog stores a run's recipe as one (the facts its commands state, each optional, plus the
 * commands as written). What is derived from the facts is derived here, once: the devices an
 * instance occupies (what SGLang counts: a GPU, or one die of an Ascend 910C), the cards and nodes
 * they fill, and the deploy mode. The performance model's view of one instance is derived from its
 * facts by `resolveInstance` (sim/model/resolve-instance.ts).
 */
import { getHardware, type HardwareProfile } from './model/catalog.js';
import type { LaunchConfig } from './launch-config.js';

/** What an instance does: prefill and decode (PD mixed), one side of PD separation, or route between them. */
export type InstanceRole = 'mixed' | 'prefill' | 'decode' | 'router';

/** The roles of the instances that serve requests on devices (all but the router). */
export type ServerRole = Exclude<InstanceRole, 'router'>;

/** Every instance prefills and decodes, or prefill and decode instances are separate. */
export type DeployMode = 'pd-mixed' | 'pd-separated';

/**
 * The launch flags of an instance that shape performance (model, device, parallel layout, nnodes,
 * quantization, disaggregation mode, ...), keyed as the LaunchConfig keys them; absent = not stated.
 * A parsed launch states them all; a recipe what its command gives (SGLang's own commands never
 * name the device: a recipe's is its run's `hardware` label).
 */
export type DeploymentFlags = Partial<
  Pick<
    LaunchConfig,
    | 'modelPath'
    | 'servedModelName'
    | 'hardware'
    | 'tpSize'
    | 'dpSize'
    | 'epSize'
    | 'enableDpAttention'
    | 'enableDpLmHead'
    | 'maxRunningRequests'
    | 'maxTotalTokens'
    | 'chunkedPrefillSize'
    | 'maxPrefillTokens'
    | 'contextLength'
    | 'memFractionStatic'
    | 'kvCacheDtype'
    | 'quantization'
    | 'dtype'
    | 'pageSize'
    | 'disableRadixCache'
    | 'speculativeAlgorithm'
    | 'speculativeNumSteps'
    | 'speculativeEagleTopk'
    | 'speculativeNumDraftTokens'
    | 'disaggregationMode'
    | 'nnodes'
  >
> & {
  /** Pipeline stages (`--pp-size`); 1 when absent. */
  ppSize?: number;
  /** SGLang's `--device`: the kind of device (`cuda`, `npu`, `cpu`), not its model. */
  device?: string;
  moeA2aBackend?: string;
  deepepMode?: string;
};

/** One instance (server process) of a deployment: its role and its launch flags. */
export interface DeploymentInstance<Flags extends DeploymentFlags = DeploymentFlags> {
  role: InstanceRole;
  /** The instance's launch flags (`config`, as the catalog stores a recipe's). */
  config: Flags;
}

/** A deployment: the instances that serve one model together (one PD-mixed server, or prefill and decode instances and their router). */
export interface Deployment<Instance extends DeploymentInstance = DeploymentInstance> {
  instances: Instance[];
}

/** An instance parsed from its launch flags: every fact known, SGLang's defaults for what the flags leave out. */
export interface LaunchInstance extends DeploymentInstance<LaunchConfig> {
  role: ServerRole;
}

/** A deployment parsed from launch flags: what predict, sweep, the configuration search and the calibration run. */
export type LaunchDeployment = Deployment<LaunchInstance>;

/** The role `--disaggregation-mode` gives a server. */
export function serverRole(disaggregationMode: string | null | undefined): ServerRole {
  return disaggregationMode === 'prefill' || disaggregationMode === 'decode' ? disaggregationMode : 'mixed';
}

/** The device a parsed instance runs on: the one `--hardware-spec` describes, else the catalogued `--hardware`. */
export function launchHardware(config: Pick<LaunchConfig, 'hardware' | 'hardwareProfile'>): HardwareProfile {
  return config.hardwareProfile ?? getHardware(config.hardware);
}

/** The instances that hold devices (every one but the router). */
export function servers<Instance extends DeploymentInstance>(deployment: Deployment<Instance>): Instance[] {
  return deployment.instances.filter((instance) => instance.role !== 'router');
}

/**
 * Devices one instance occupies: TP spans the DP-attention ranks; `--dp` without DP attention
 * replicates the TP group; pipeline stages stack. Flags a recipe leaves out count as 1 (off).
 */
export function instanceDevices(flags: DeploymentFlags): number {
  const { tpSize = 1, dpSize = 1, ppSize = 1, enableDpAttention = false } = flags;
  return tpSize * (enableDpAttention ? 1 : dpSize) * ppSize;
}

/** Devices of the whole deployment. */
export function deploymentDevices(deployment: Deployment): number {
  return servers(deployment).reduce((total, instance) => total + instanceDevices(instance.config), 0);
}

/** Cards occupied by `devices` devices (a partial card counts as a whole one). */
export function cardsFor(hardware: Pick<HardwareProfile, 'devicesPerCard'>, devices: number): number {
  return Math.ceil(devices / hardware.devicesPerCard);
}

/**
 * `devices` devices of `hardware` as the field counts them: `8 x h100`, and where a card holds
 * several, both units, `16 dies = 8 cards of ascend-910c` (SGLang counts dies, per-card figures count cards).
 */
export function countDevices(hardware: Pick<HardwareProfile, 'key' | 'devicesPerCard' | 'unit'>, devices: number): string {
  if (hardware.devicesPerCard <= 1) return `${devices} x ${hardware.key}`;
  const cards = cardsFor(hardware, devices);
  return `${devices} ${hardware.unit}${devices === 1 ? '' : 's'} = ${cards} card${cards === 1 ? '' : 's'} of ${hardware.key}`;
}

/** Nodes (scale-up domains) `devices` devices of one instance span. */
export function nodesFor(hardware: Pick<HardwareProfile, 'devicesPerNode'>, devices: number): number {
  return Math.ceil(devices / hardware.devicesPerNode);
}

/** PD separated when an instance prefills or decodes only, else PD mixed; null for a deployment with no instance. */
export function deployMode(deployment: Deployment): DeployMode | null {
  if (deployment.instances.length === 0) return null;
  return deployment.instances.some((instance) => instance.role === 'prefill' || instance.role === 'decode') ? 'pd-separated' : 'pd-mixed';
}

/** How many instances play `role`. */
export function roleCount(deployment: Deployment, role: InstanceRole): number {
  return deployment.instances.filter((instance) => instance.role === role).length;
}
