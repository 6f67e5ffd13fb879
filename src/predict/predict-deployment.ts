/**
 * What `predict` (and a prediction-mode sweep) deploys: one PD-mixed server from plain SGLang
 * flags, or PD separation from `--prefill "<flags>"` (repeatable: several prefill instances) and
 * `--decode "<flags>"`. Flags given outside those strings are shared by every instance; an
 * instance's own flags come after them, so they win.
 */
import { UsageError } from '../core/errors.js';
import { parseLaunchArgs, splitCommandLine } from '../sim/index.js';
import { resolveInstance } from '../sim/index.js';
import { cardsFor, instanceDeviceCount } from '../sim/index.js';
import type { LaunchConfig } from '../sim/index.js';

export interface PredictInstance {
  role: 'mixed' | 'prefill' | 'decode';
  launch: LaunchConfig;
}

export interface PredictDeployment {
  mode: 'pd-mixed' | 'pd-separated';
  instances: PredictInstance[];
}

/** The flags of a pasted instance command, without its launcher words (`python -m sglang.launch_server`). */
function instanceWords(text: string): string[] {
  const words = splitCommandLine(text);
  const firstFlag = words.findIndex((word) => word.startsWith('--'));
  return firstFlag < 0 ? [] : words.slice(firstFlag);
}

/** Parses the deployment; throws `UsageError` for a bad or incomplete one. */
export function parsePredictDeployment(shared: readonly string[], prefills: readonly string[], decodes: readonly string[]): PredictDeployment {
  if (prefills.length === 0 && decodes.length === 0) {
    return { mode: 'pd-mixed', instances: [{ role: 'mixed', launch: parseLaunchArgs(shared).launch }] };
  }
  if (prefills.length === 0 || decodes.length === 0) {
    throw new UsageError('PD separation needs both --prefill "<flags>" and --decode "<flags>" (repeat --prefill for several prefill instances)');
  }
  const instance = (role: 'prefill' | 'decode', text: string): PredictInstance => {
    const words = [...shared, ...instanceWords(text), '--disaggregation-mode', role];
    return { role, launch: parseLaunchArgs(words).launch };
  };
  return {
    mode: 'pd-separated',
    instances: [...prefills.map((text) => instance('prefill', text)), ...decodes.map((text) => instance('decode', text))],
  };
}

/** Devices of the whole deployment. */
export function deploymentDevices(deployment: PredictDeployment): number {
  return deployment.instances.reduce(
    (total, { launch }) => total + instanceDeviceCount({ tp: launch.tpSize, dp: launch.dpSize, enableDpAttention: launch.enableDpAttention }),
    0,
  );
}

/** Cards of the whole deployment (an Atlas 800I A3 card holds two devices). */
export function deploymentCards(deployment: PredictDeployment): number {
  const first = deployment.instances[0] as PredictInstance;
  const hardware = resolveInstance(first.launch).hardware;
  return cardsFor(hardware, deploymentDevices(deployment));
}

/** One line naming the deployment, e.g. `deepseek-v3.2 on 8 x b200: PD mixed`. */
export function describeDeployment(deployment: PredictDeployment): string {
  const first = resolveInstance((deployment.instances[0] as PredictInstance).launch);
  const roles = deployment.mode === 'pd-mixed'
    ? 'PD mixed'
    : `PD separated (${deployment.instances.filter((i) => i.role === 'prefill').length} prefill, ${deployment.instances.filter((i) => i.role === 'decode').length} decode)`;
  return `${first.model.name} on ${deploymentDevices(deployment)} x ${first.hardware.key}: ${roles}`;
}
