/**
 * The `servebench` key of the sim's `/get_server_info`: what it simulates that SGLang's body has no
 * field for (the device, the cards the instance fills, the weights' format) and its own settings,
 * in the contract deployment/server-info.ts states. A client such as the catalog takes the
 * deployment from SGLang's fields and the device from here. Pure.
 */
import { cardsFor, hardwareInfo, instanceDevices, type LaunchConfig, type ServebenchInfo } from '../../deployment/index.js';
import type { ResolvedInstance } from '../model/resolve-instance.js';

/** What the sim states of itself; `deployment` null (truth mode with a model the catalog does not know) simulates no device. */
export function servebenchInfo(launch: LaunchConfig, deployment: ResolvedInstance | null): ServebenchInfo {
  const devices = instanceDevices(launch);
  return {
    hardware: deployment === null ? null : hardwareInfo(deployment.hardware),
    devices,
    cards: deployment === null ? null : cardsFor(deployment.hardware, devices),
    weight_format: deployment?.quant.name ?? null,
    raw_args: launch.rawArgs,
    ignored_flags: launch.ignoredFlags,
    sim_model: launch.simModel,
    sim_seed: launch.simSeed,
    sim_dataset: launch.simDataset,
    sim_realtime: launch.simRealtime,
  };
}
