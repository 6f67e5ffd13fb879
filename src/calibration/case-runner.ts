/**
 * Runs a published case through the same pipeline as `servebench predict` with the case's own
 * flags: the deployment from its SGLang flags, the workload `servebench bench` would build from its
 * bench flags (built once), then the engine in virtual time under a given calibration (many times).
 */
import { type BenchRunConfig, parseEmbeddedBenchArgs, resolveRunConfig, rowsFromLengths } from '../bench/index.js';
import { createBenchRngs, NumpyRandomState } from '../core/rng.js';
import { mean, median } from '../core/stats.js';
import { lengthOnlyWorkload, predictionWorkloads, predictableWorkload, runWorkload, type Workload } from '../predict/index.js';
import type { LaunchDeployment } from '../deployment/index.js';
import { parseDeployment, resolveInstance, type ResolvedInstance, type Calibration } from '../sim/index.js';
import { architectureClass } from './architecture-class.js';
import type { PredictionCase } from './cases.js';

/** A case ready to simulate: its parsed deployment and its built workload. */
export interface PreparedCase {
  case: PredictionCase;
  /** `model × hardware`: the unit leave-one-group-out cross-validation holds out. */
  group: string;
  /** The served model's architecture class (architecture-class.ts): the unit leave-one-architecture-out holds out. */
  architecture: string;
  deployment: LaunchDeployment;
  /** The resolved deployment of each instance (prefill instances first), under the stored fit. */
  resolved: ResolvedInstance[];
  config: BenchRunConfig;
  workload: Workload;
}

/** The figures a prediction gives for a case (ms unless named). */
export interface PredictedFigures {
  tpotMs: number;
  ttftMs: number;
  outputTps: number;
  acceptLength: number | null;
  durationS: number;
  medianTtftMs: number;
  itlMs: number;
}

/** `count` log-normal lengths (shape `sigma`) rescaled to sum to `total`, each at least 2 tokens. */
function logNormalLens(numpy: NumpyRandomState, count: number, sigma: number, total: number): number[] {
  const raw = Array.from({ length: count }, () => {
    const u = Math.max(numpy.randomSample(), 1e-12);
    return Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * numpy.randomSample()));
  });
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => Math.max(2, Math.round((x * total) / sum)));
}

/** A ShareGPT-shaped workload with the case's published token totals (its prompts are not available offline). */
function lengthsWorkload(config: BenchRunConfig, totals: { inputTotal: number; outputTotal: number }): Workload {
  const rngs = createBenchRngs(config.seed);
  const numpy = new NumpyRandomState(1);
  const inputs = logNormalLens(numpy, config.dataset.numPrompts, 1.5, totals.inputTotal);
  const outputs = logNormalLens(numpy, config.dataset.numPrompts, 0.9, totals.outputTotal);
  return { dataset: { rows: rowsFromLengths(inputs, outputs), multiTurn: false }, rngs };
}

function deploymentOf(c: PredictionCase): LaunchDeployment {
  const shared = ['--model-path', c.modelPath, '--hardware', c.hardware, ...c.launchFlags];
  if (c.prefillFlags === null || c.decodeFlags === null) return parseDeployment(shared, [], []);
  return parseDeployment(shared, [c.prefillFlags.join(' ')], [c.decodeFlags.join(' ')]);
}

/** Parses a case's flags and builds its workload (the tokenizer is loaded as `predict` loads it). */
export async function prepareCase(c: PredictionCase): Promise<PreparedCase> {
  const deployment = deploymentOf(c);
  const resolved = deployment.instances.map((instance) => resolveInstance(instance.config));
  const serving = resolved[resolved.length - 1]!;
  const config = resolveRunConfig(parseEmbeddedBenchArgs(['--backend', c.backend, ...c.benchFlags], 'predict'), { defaultModel: c.modelPath });
  const workload = c.workloadLengths
    ? lengthsWorkload(config, c.workloadLengths)
    : await predictableWorkload(config, await predictionWorkloads(config, lengthOnlyWorkload(config), () => {}));
  return { case: c, group: `${serving.model.key} × ${serving.hardware.key}`, architecture: architectureClass(serving.model), deployment, resolved, config, workload };
}

/**
 * Predicts a prepared case under `calibration` (defaults: the stored fit). The figures are bench's
 * (calculateMetrics' definitions) computed without its percentiles: a fit asks for them hundreds of
 * times, and sorting millions of inter-token gaps would be most of the cost.
 */
export function simulateCase(p: PreparedCase, calibration: Calibration = {}): PredictedFigures {
  const { result } = runWorkload(p.deployment, p.config, p.workload, calibration);
  const ttfts: number[] = [];
  const tpots: number[] = [];
  let gaps = 0;
  for (const o of result.outputs) if (o.success) gaps += o.itl.length;
  const itls = new Float64Array(gaps);
  let at = 0;
  let outputTokens = 0;
  for (const o of result.outputs) {
    if (!o.success) continue;
    ttfts.push(o.ttft);
    if (o.outputLen > 1) tpots.push((o.latency - o.ttft) / (o.outputLen - 1));
    itls.set(o.itl, at);
    at += o.itl.length;
    outputTokens += o.outputLen;
  }
  return {
    tpotMs: mean(tpots) * 1000,
    ttftMs: mean(ttfts) * 1000,
    outputTps: outputTokens / result.durationS,
    acceptLength: result.acceptLength,
    durationS: result.durationS,
    medianTtftMs: median(ttfts) * 1000,
    itlMs: mean(itls) * 1000,
  };
}
