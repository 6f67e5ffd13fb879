/**
 * A deployment from SGLang launch flags, as `predict` and a prediction-mode sweep take it: one
 * PD-mixed server from plain flags, or PD separation from `--prefill "<flags>"` (repeatable:
 * several prefill instances) and `--decode "<flags>"`. Flags given outside those strings are
 * shared by every instance; an instance's own flags come after them, so they win.
 */
import { UsageError } from '../../core/errors.js';
import { splitCommandLine } from '../../core/command-line.js';
import { parseLaunchArgs, type HardwareProfile, cardsFor, countDevices, deployMode, deploymentDevices, roleCount, type LaunchDeployment, type LaunchInstance } from '../../deployment/index.js';
import { resolveInstance, type ResolvedInstance } from '../model/resolve-instance.js';

/** The flags of a pasted instance command, without its launcher words (`python -m sglang.launch_server`). */
function instanceWords(text: string): string[] {
  const words = splitCommandLine(text);
  const firstFlag = words.findIndex((word) => word.startsWith('--'));
  return firstFlag < 0 ? [] : words.slice(firstFlag);
}

/** Parses the deployment; throws `UsageError` for a bad or incomplete one. */
export function parseDeployment(shared: readonly string[], prefills: readonly string[], decodes: readonly string[]): LaunchDeployment {
  if (prefills.length === 0 && decodes.length === 0) {
    return { instances: [{ role: 'mixed', config: parseLaunchArgs(shared).launch }] };
  }
  if (prefills.length === 0 || decodes.length === 0) {
    throw new UsageError('PD separation needs both --prefill "<flags>" and --decode "<flags>" (repeat --prefill for several prefill instances)');
  }
  const instance = (role: 'prefill' | 'decode', text: string): LaunchInstance => {
    const words = [...shared, ...instanceWords(text), '--disaggregation-mode', role];
    return { role, config: parseLaunchArgs(words).launch };
  };
  return { instances: [...prefills.map((text) => instance('prefill', text)), ...decodes.map((text) => instance('decode', text))] };
}

/** The performance model's view of the deployment's first instance: its model and device name the deployment. */
function firstResolved(deployment: LaunchDeployment): ResolvedInstance {
  return resolveInstance((deployment.instances[0] as LaunchInstance).config);
}

/** The device the deployment runs on (its first instance's). */
export function deploymentHardware(deployment: LaunchDeployment): HardwareProfile {
  return firstResolved(deployment).hardware;
}

/** Cards of the whole deployment (an Atlas 800I A3 card holds two devices). */
export function deploymentCards(deployment: LaunchDeployment): number {
  return cardsFor(deploymentHardware(deployment), deploymentDevices(deployment));
}

/** One line naming the deployment, e.g. `deepseek-v3.2 on 8 x b200: PD mixed`, `Qwen3-32B on 4 dies = 2 cards of ascend-910c: PD mixed`. */
export function describeDeployment(deployment: LaunchDeployment): string {
  const first = firstResolved(deployment);
  const roles =
    deployMode(deployment) === 'pd-mixed' ? 'PD mixed' : `PD separated (${roleCount(deployment, 'prefill')} prefill, ${roleCount(deployment, 'decode')} decode)`;
  return `${first.model.name} on ${countDevices(first.hardware, deploymentDevices(deployment))}: ${roles}`;
}
