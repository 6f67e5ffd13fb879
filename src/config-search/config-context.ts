/**
 * Everything a configuration search evaluates against, built from a plain, cloneable spec so the
 * same context can be rebuilt inside a worker thread: the candidate list, their deployments, the
 * workload, and an evaluator that predicts each candidate in virtual time.
 */
import { UserError } from '../core/errors.js';
import type { BenchRunConfig } from '../bench/index.js';
import { parseLaunchArgs, type HardwareProfile, type ModelSpec, cardsFor, type LaunchDeployment, type LaunchInstance, resolveModel } from '../deployment/index.js';
import { resolveInstance } from '../sim/index.js';
import { lengthOnlyWorkload, predictionWorkloads, type WorkloadCache } from '../predict/index.js';
import { createLocalEvaluator, type CandidateEvaluator } from './config-search.js';
import { enumerateConfigs, type ConfigCandidate } from './config-space.js';
import { instanceFlags } from './launch-render.js';
import { type Slo, measureAtFor, predictionTarget } from '../sweep/index.js';

/** The search as plain data (what a worker thread receives). */
export interface ConfigSearchSpec {
  modelPath: string;
  /** The device itself (catalogued or described by a spec file), so a worker thread reads no file. */
  hardware: HardwareProfile;
  devices: number;
  includePd: boolean;
  slo: Slo | null;
  maxConcurrency: number;
  promptsPerLoad: number;
  /** The run config of the bench flags, the model path standing in for `--model` (plain data, so a worker thread receives it as it is). */
  benchConfig: BenchRunConfig;
}

export interface SearchContext {
  model: ModelSpec;
  hardware: HardwareProfile;
  cards: number;
  /** The note of a workload built from lengths alone (no tokenizer for the model), or null. */
  workloadNote: string | null;
  candidates: ConfigCandidate[];
  evaluator: CandidateEvaluator;
}

/** Each replica of a candidate becomes one instance the engine composes. */
export function candidateDeployment(candidate: ConfigCandidate, modelPath: string, hardware: HardwareProfile): LaunchDeployment {
  const instances: LaunchInstance[] = candidate.instances.flatMap((plan) => {
    const flags = instanceFlags(plan, { modelPath, devicesPerNode: hardware.devicesPerNode });
    const config = { ...parseLaunchArgs(flags).launch, hardwareProfile: hardware };
    return Array.from({ length: plan.replicas }, () => ({ role: plan.role, config }));
  });
  return { instances };
}

/** Why a candidate cannot serve the workload (it does not fit, its KV pool cannot hold one request), or null. */
export function infeasibility(deployment: LaunchDeployment, config: BenchRunConfig): string | null {
  const longest = config.dataset.random.inputLen + config.dataset.random.outputLen;
  for (const instance of deployment.instances) {
    let resolved;
    try {
      resolved = resolveInstance(instance.config);
    } catch (error) {
      if (error instanceof UserError) return error.message.split(':')[0] ?? error.message;
      throw error;
    }
    if (config.dataset.name.startsWith('random') && resolved.kvCapacityPerRank < longest) {
      return `KV pool of ${resolved.kvCapacityPerRank} tokens per rank cannot hold one ${longest}-token request`;
    }
  }
  return null;
}

/** Builds the context; the tokenizer is loaded only when the first candidate is predicted. */
export function createSearchContext(spec: ConfigSearchSpec): SearchContext {
  const hardware = spec.hardware;
  const { model } = resolveModel({ modelPath: spec.modelPath, revision: null, simModel: null });
  const candidates = enumerateConfigs({ model, devices: spec.devices, includePd: spec.includePd });
  const deployments = candidates.map((candidate) => candidateDeployment(candidate, spec.modelPath, hardware));
  const cards = cardsFor(hardware, spec.devices);
  let workloads: Promise<WorkloadCache> | undefined;
  const lengthOnly = lengthOnlyWorkload(spec.benchConfig);
  const workloadCache = (): Promise<WorkloadCache> => (workloads ??= predictionWorkloads(spec.benchConfig, lengthOnly, () => {}));
  const evaluator = createLocalEvaluator({
    candidates,
    cards,
    slo: spec.slo,
    maxConcurrency: spec.maxConcurrency,
    infeasibility: (candidate) => infeasibility(deployments[candidates.indexOf(candidate)]!, spec.benchConfig),
    measureFor: (candidate) => async (load) => {
      const target = predictionTarget(deployments[candidates.indexOf(candidate)]!, spec.benchConfig, await workloadCache());
      return measureAtFor(target, { kind: 'concurrency', promptsPerLoad: spec.promptsPerLoad, labels: {}, record: () => null })(load);
    },
  });
  return { model, hardware, cards, workloadNote: lengthOnly?.note ?? null, candidates, evaluator };
}
