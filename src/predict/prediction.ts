/**
 * One virtual-time prediction of a bench run: the bench workload (same dataset builder, seed and
 * arrival process as `servebench bench`) fed to the simulated engine through the virtual client,
 * then bench's own metrics. No HTTP, no sleeping.
 */
import { UserError } from '../core/errors.js';
import { calculateExtras, type BenchmarkMetrics, type ServebenchExtras, type BenchRunConfig, type RequestOutput } from '../bench/index.js';
import { createDisaggregatedEngine, createEngine, type SimEngine, type Calibration, explainStep } from '../sim/index.js';
import { predictRun, type PredictResult } from './virtual/virtual-client.js';
import { predictedMetrics } from './virtual/predicted-metrics.js';
import { type LaunchConfig, deployMode, type LaunchDeployment, type LaunchInstance } from '../deployment/index.js';
import type { Workload, WorkloadCache } from './workload-cache.js';

export interface Prediction {
  /** What the run's typical steps were made of, when asked for (`predict --explain`). */
  explanation: string[];
  outputs: RequestOutput[];
  durationS: number;
  metrics: BenchmarkMetrics;
  extras: ServebenchExtras;
  /** What the prediction leaves out for this workload, one line each. */
  notes: string[];
}

/** Workloads whose prompts share prefixes: the virtual client sends lengths only, so the radix cache never hits. */
const SHARED_PREFIX_DATASETS = new Set(['generated-shared-prefix', 'mooncake']);

/**
 * The engine of a deployment serving `dataset`'s requests: one instance, or the prefill and decode
 * instances composed with KV transfer. Each instance takes the speculative acceptance seen on that
 * dataset, unless its flags name one (`--sim-dataset`).
 */
export function engineFor(deployment: LaunchDeployment, dataset: string, calibration: Calibration = {}): SimEngine {
  const serving = (config: LaunchConfig): LaunchConfig => ({ ...config, simDataset: config.simDataset ?? dataset });
  if (deployMode(deployment) === 'pd-mixed') return createEngine(serving((deployment.instances[0] as LaunchInstance).config), { calibration });
  const launches = (role: LaunchInstance['role']): LaunchConfig[] => deployment.instances.filter((i) => i.role === role).map((i) => serving(i.config));
  return createDisaggregatedEngine(launches('prefill'), launches('decode'), { calibration });
}

/** The workload `servebench bench` would build for `config`, refused where virtual time cannot run it. */
export async function predictableWorkload(config: BenchRunConfig, workloads: WorkloadCache): Promise<Workload> {
  if (config.load.useTraceTimestamps) {
    throw new UserError('predict does not replay trace timestamps yet: drop --use-trace-timestamps (arrivals then follow --request-rate), or bench the sim in real time');
  }
  if (config.repeat.runs > 1) {
    throw new UserError('a prediction is deterministic, so repeated runs would all be the same: drop --num-runs (it repeats measurements: bench, sweep --sim or a server)');
  }
  const workload = await workloads.workload(config);
  if (workload.dataset.multiTurn) {
    throw new UserError('predict does not model multi-turn conversations yet: use --gsp-num-turns 1, or bench the sim in real time (servebench bench --sim ...)');
  }
  return workload;
}

/** Predicts the run `config` describes against `deployment`, on the workload `servebench bench` would build. */
export async function predictBench(deployment: LaunchDeployment, config: BenchRunConfig, workloads: WorkloadCache, options: PredictOptions = {}): Promise<Prediction> {
  return predictWorkload(deployment, config, await predictableWorkload(config, workloads), options);
}

export interface PredictOptions {
  calibration?: Calibration;
  /** Also explain the run's typical decode and prefill steps. */
  explain?: boolean;
}

/**
 * Runs a built workload through the engine in virtual time. The workload's random streams are left
 * untouched (arrivals draw from a copy), so one workload can be run again, e.g. under another calibration.
 */
export function runWorkload(
  deployment: LaunchDeployment,
  config: Pick<BenchRunConfig, 'load' | 'dataset'>,
  workload: Workload,
  calibration: Calibration = {},
): { result: PredictResult; engine: SimEngine } {
  const engine = engineFor(deployment, config.dataset.name, calibration);
  const result = predictRun(engine, workload.dataset.rows, {
    requestRate: config.load.requestRate,
    maxConcurrency: config.load.maxConcurrency,
    numpy: workload.rngs.numpy.clone(),
    warmupRequests: config.load.warmupRequests,
  });
  return { result, engine };
}

/** The typical decode and prefill step of every kind of instance of a finished run, explained. */
function explainRun(engine: SimEngine): string[] {
  const lines: string[] = [];
  for (const { role, deployment, profile } of engine.instanceProfiles()) {
    const where = role === 'mixed' ? '' : `${role} instance, `;
    const decode = profile.typicalDecode(deployment.attentionDp);
    const prefill = profile.typicalPrefill(deployment.attentionDp);
    const total = (decode?.seconds ?? 0) + (prefill?.seconds ?? 0);
    if (decode) lines.push(...explainStep(deployment, `Typical ${where}decode step`, decode.ranks, decode.steps, decode.seconds / total));
    if (prefill) lines.push(...explainStep(deployment, `Typical ${where}prefill step`, prefill.ranks, prefill.steps, prefill.seconds / total));
  }
  return lines;
}

/** Predicts a built workload: bench's result block and extras from the virtual-time run. */
export function predictWorkload(deployment: LaunchDeployment, config: BenchRunConfig, workload: Workload, options: PredictOptions = {}): Prediction {
  const { result, engine } = runWorkload(deployment, config, workload, options.calibration);
  const metrics = predictedMetrics(result);
  const extras = calculateExtras({ outputs: result.outputs, durationS: result.durationS, requestRate: config.load.requestRate, maxConcurrency: config.load.maxConcurrency });
  const notes = SHARED_PREFIX_DATASETS.has(config.dataset.name)
    ? [`note: prefix-cache hits between ${config.dataset.name} prompts are not modelled in virtual time; 'servebench bench --sim' models them`]
    : [];
  const explanation = options.explain ? explainRun(engine) : [];
  return { explanation, outputs: result.outputs, durationS: result.durationS, metrics, extras, notes };
}
