/**
 * Efficiency factors: what the roofline misses, as named numbers per hardware FAMILY and per engine
 * FEATURE — never per case. Each factor has an a-priori value (the literature, spec §3.4 and §6, or
 * the structure it counts) and a prior spread; `bench/predict-accuracy.ts --write` fits them on the
 * published runs (src/calibration) and stores the result in fitted-factors.json, which the sim loads.
 */
import { deepFreeze } from '../../core/deep-freeze.js';
import { acceptRateFor, type AcceptanceTable } from './acceptance-table.js';
import fitted from './fitted-factors.json' with { type: 'json' };
import type { HardwareFamily } from '../../deployment/index.js';
import type { BlockKernels } from './kernel-counts.js';

/** One fitted number: its prior and where it applies. */
export interface FactorSpec {
  /** A-priori value: the prior's centre. */
  prior: number;
  /** Prior spread, multiplicative at one sigma (2 = "within ×/÷2"); 0 = fixed, never fitted. */
  spread: number;
  min: number;
  max: number;
  /** What the factor stands for (printed by `predict --explain` and the accuracy script). */
  meaning: string;
}

/** Named factor values, e.g. `nvidia.kernelUs`, `spec.draftStepUs`. */
export type Factors = Readonly<Record<string, number>>;

const FAMILIES: readonly HardwareFamily[] = ['nvidia', 'amd', 'ascend'];

/** Per-family factors: name → (prior per family, spread, bounds, meaning). */
const FAMILY_FACTORS: Record<string, { prior: Record<HardwareFamily, number>; spread: number; min: number; max: number; meaning: string }> = {
  memory: {
    prior: { nvidia: 0.8, amd: 0.75, ascend: 0.8 },
    spread: 1.25,
    min: 0.2,
    max: 1,
    meaning: 'achieved fraction of HBM bandwidth when streaming weights and KV',
  },
  gemm: {
    prior: { nvidia: 0.6, amd: 0.5, ascend: 0.5 },
    spread: 2,
    min: 0.01,
    max: 0.95,
    meaning: 'achieved fraction of the 16-bit math peak on large (prefill) GEMMs',
  },
  gemm8: {
    prior: { nvidia: 0.45, amd: 0.4, ascend: 0.4 },
    spread: 2,
    min: 0.01,
    max: 0.95,
    meaning: 'achieved fraction of the 8-bit (FP8/INT8) or 4-bit peak on large GEMMs: block scales and dynamic quantisation cost',
  },
  attention: {
    prior: { nvidia: 0.45, amd: 0.4, ascend: 0.45 },
    spread: 3,
    min: 0.005,
    max: 0.95,
    meaning: 'achieved fraction of the 16-bit peak on prefill attention math',
  },
  kernelScale: {
    prior: { nvidia: 1, amd: 1, ascend: 1 },
    spread: 2.5,
    min: 0.1,
    max: 20,
    meaning: "multiplier on the device's a-priori time of one small kernel in a captured graph (kernelFloorUs)",
  },
  expertUs: {
    prior: { nvidia: 0.5, amd: 1, ascend: 2 },
    spread: 4,
    min: 0.01,
    max: 100,
    meaning: 'cost of each local expert a MoE layer touches, beyond its bytes (grouped-GEMM tiles and scheduling; µs)',
  },
  collectiveLatency: {
    prior: { nvidia: 1, amd: 1, ascend: 1 },
    spread: 2.5,
    min: 0.1,
    max: 20,
    meaning: "multiplier on the device's a-priori collective start-up latency (all-reduce, all-to-all)",
  },
  stepCpuUs: {
    prior: { nvidia: 1000, amd: 1000, ascend: 2000 },
    spread: 2,
    min: 100,
    max: 20000,
    meaning: 'host time of one scheduler pass (t_0, µs), hidden behind the device by the overlap scheduler',
  },
  requestCpuUs: {
    prior: { nvidia: 14, amd: 14, ascend: 20 },
    spread: 2,
    min: 1,
    max: 500,
    meaning: 'host time per running request per scheduler pass (t_req, µs)',
  },
};

/** Engine-feature factors, shared by every hardware family. */
const FEATURE_FACTORS: Record<string, FactorSpec> = {
  'spec.draftStepUs': { prior: 300, spread: 2, min: 10, max: 5000, meaning: 'fixed cost of one speculative draft step (sampling, top-k, graph replay; µs)' },
  'spec.cpuUs': { prior: 1500, spread: 2, min: 10, max: 20000, meaning: 'non-overlapped verify bookkeeping per speculative iteration (µs)' },
  'ep.prefillScale': { prior: 2, spread: 2, min: 0.5, max: 10, meaning: 'multiplier on extend passes whose experts are spread over an expert-parallel group (normal-mode all-to-all)' },
  'kernels.gqa': { prior: 5, spread: 1.6, min: 1, max: 60, meaning: 'kernels of a GQA attention block in a decode pass' },
  'kernels.mla': { prior: 11, spread: 1.6, min: 1, max: 100, meaning: 'kernels of an MLA attention block (absorbed decode)' },
  // Indexer q/k projections, k norm, RoPE on q and k, weights projection, FP8 quantisation of q and k,
  // k-cache store, MQA logits with their metadata, top-k and its index transform, sparse attention.
  'kernels.dsaIndexer': { prior: 15, spread: 2, min: 1, max: 200, meaning: "kernels DeepSeek sparse attention's lightning indexer adds to a layer" },
  'kernels.denseMlp': { prior: 3, spread: 1.6, min: 1, max: 30, meaning: 'kernels of a dense SwiGLU MLP block' },
  'kernels.moe': { prior: 7, spread: 1.6, min: 1, max: 60, meaning: 'kernels of a routed-experts block (router, top-k, sort, grouped GEMMs, combine)' },
  'roofline.sharpness': { prior: 4, spread: 1.6, min: 1.2, max: 30, meaning: 'how sharply an op turns from math-bound to memory-bound: (t_math^p + t_memory^p)^(1/p)' },
  'dsa.passScale': { prior: 1, spread: 2, min: 0.3, max: 10, meaning: "multiplier on the device time of a DeepSeek-sparse-attention model's passes (its day-0 kernels, beyond the indexer's own)" },
  'cp.prefillScale': { prior: 2, spread: 2, min: 0.5, max: 10, meaning: 'multiplier on extend passes run by a prefill context-parallel group' },
  // One factor, not one per family: an eager pass's host time per kernel is PyTorch's Python dispatch
  // and SGLang's layer code, the same software on every accelerator (the launch itself is a few µs of
  // it). Per family, MI300X's was pinned by three Qwen3-Coder runs: holding them out halved it.
  'host.launchUs': { prior: 30, spread: 4, min: 1, max: 1000, meaning: 'host time per kernel of an eager pass (prefill, or decode without a graph): Python, launch, routing setup (µs)' },
  // One factor, not one per family: it is SGLang's Python front end, the same software on every accelerator.
  // Per family, MI300X's was pinned by three Qwen3-Coder runs whenever DeepSeek on MI300X was held out.
  'frontEnd.hopUs': { prior: 20000, spread: 5, min: 100, max: 1000000, meaning: "latency every request pays outside the scheduler's steps: HTTP, tokenisation, the hops to the scheduler and back (µs)" },
  'frontEnd.ingestUs': { prior: 1000, spread: 3, min: 10, max: 50000, meaning: "serial front-end cost per arriving request (HTTP, tokenizer manager; µs): a burst reaches the scheduler when it drains" },
};

/** Fixed engine constants (not fitted: no published run pins them). */
const FIXED_FACTORS: Record<string, FactorSpec> = {
  'kernels.norms': { prior: 2, spread: 0, min: 0, max: 10, meaning: 'kernels of the fused residual-add RMSNorms of a layer' },
  'kernels.linearAttention': { prior: 7, spread: 0, min: 1, max: 60, meaning: 'kernels of a Gated DeltaNet block (no published run pins it yet)' },
  'kernels.sharedExpert': { prior: 3, spread: 0, min: 1, max: 30, meaning: 'kernels of a shared-expert SwiGLU MLP' },
  'kernels.quantPerGemm': { prior: 1, spread: 0, min: 0, max: 5, meaning: 'activation-quantisation kernels before each 8-bit GEMM input' },
  'spec.acceptSpread': { prior: 0.08, spread: 0, min: 0, max: 1, meaning: 'spread of per-request acceptance around the model rate' },
  'frontEnd.chunkUs': { prior: 5, spread: 0, min: 0, max: 1000, meaning: 'serial front-end cost per streamed chunk (µs)' },
  'link.efficiency': { prior: 0.7, spread: 0, min: 0.1, max: 1, meaning: 'achieved fraction of scale-up and scale-out link bandwidth' },
  'pd.transferLatencyUs': { prior: 5000, spread: 0, min: 0, max: 1e6, meaning: 'fixed cost of one PD KV transfer (µs)' },
};

/** Every factor by name, with its prior. */
export const FACTOR_SPECS: Readonly<Record<string, FactorSpec>> = (() => {
  const specs: Record<string, FactorSpec> = {};
  for (const [name, f] of Object.entries(FAMILY_FACTORS)) {
    for (const family of FAMILIES) specs[`${family}.${name}`] = { prior: f.prior[family], spread: f.spread, min: f.min, max: f.max, meaning: f.meaning };
  }
  return { ...specs, ...FEATURE_FACTORS, ...FIXED_FACTORS };
})();

/** The factors a fit may move (spread > 0). */
export function fittableFactors(): string[] {
  return Object.entries(FACTOR_SPECS)
    .filter(([, spec]) => spec.spread > 0)
    .map(([name]) => name);
}

/** The priors of every factor. */
export function priorFactors(): Record<string, number> {
  return Object.fromEntries(Object.entries(FACTOR_SPECS).map(([name, spec]) => [name, spec.prior]));
}

/** What the last fit stored: factor values, acceptance by model and dataset, and the cross-validated error. */
export interface FittedFile {
  factors: Record<string, number>;
  /** Per-draft-token acceptance by catalog model and bench dataset, from the published accept lengths. */
  acceptance: AcceptanceTable;
  crossValidation: CrossValidationSummary | null;
}

/** Median absolute relative error of the leave-one-group-out predictions, per headline metric. */
export interface CrossValidationSummary {
  meanTpot: number;
  outputThroughput: number;
  meanTtft: number;
  cases: number;
  groups: number;
}

const FITTED = fitted as unknown as FittedFile;

/** The sim's factors: the priors overlaid with the stored fit. */
export const DEFAULT_FACTORS: Factors = Object.freeze({ ...priorFactors(), ...FITTED.factors });

/** Acceptance of the stored fit. */
export const DEFAULT_ACCEPTANCE: AcceptanceTable = deepFreeze(FITTED.acceptance);

/** The stored cross-validated error, or null before the first fit. */
export function storedCrossValidation(): CrossValidationSummary | null {
  return FITTED.crossValidation;
}

/** Kernel-level efficiencies and host costs of one hardware family's software stack. */
export interface FamilyEfficiency {
  memory: number;
  gemm: number;
  gemm8: number;
  attention: number;
  kernelScale: number;
  expertUs: number;
  collectiveLatency: number;
  stepCpuUs: number;
  requestCpuUs: number;
}

/** A low-acceptance tail of speculative decoding: `fraction` of requests verify about `acceptLength` tokens per pass. */
export interface AcceptTail {
  fraction: number;
  acceptLength: number;
}

export interface EfficiencyProfile {
  family: FamilyEfficiency;
  /** Host time per kernel of an eager pass (µs). */
  launchUs: number;
  /** Fraction of link bandwidth achieved by collectives and transfers. */
  link: number;
  speculative: {
    draftStepUs: number;
    specCpuUs: number;
    acceptSpread: number;
    /** Per-draft-token acceptance of this deployment's model on its dataset (acceptance-table.ts). */
    acceptRate: number;
    /** Low-acceptance tail of requests, where the stack shows one (null: none). */
    lowAcceptTail: AcceptTail | null;
  };
  expertParallelPrefillScale: number;
  contextParallelPrefillScale: number;
  sparseAttentionScale: number;
  /** Sharpness of the roofline's corner (step-time.ts `bound`). */
  rooflineSharpness: number;
  /** Kernels per block kind (a pass's count is their sum over its layers). */
  kernels: BlockKernels;
  transferLatencyUs: number;
  frontEnd: FrontEndCosts;
}

/** Front-end (HTTP server + tokenizer manager) costs injected to be faithful to SGLang's Python front end. */
export interface FrontEndCosts {
  /** Serial ingestion cost per request; a burst is handed to the scheduler when ingestion drains. */
  ingestUs: number;
  /** Constant latency from ingestion to the scheduler (ZMQ hop) and back. */
  hopUs: number;
  /** Serial cost per streamed output chunk (detokenize + write), staggering emissions within a step. */
  chunkUs: number;
}

/**
 * DeepSeek-V3.2-Exp W8A8 PD on 32 A3 cards, MTP 3/4, 64 random 64K prompts: median TPOT 24.2 ms but P99
 * TPOT 71.6 ms ≈ the one-token iteration, i.e. a few requests accept almost nothing (spec §6c); 5.2% of
 * its output tokens do not survive retokenization, unlike every NVIDIA run. Keyed by hardware family
 * (the software stack that samples the drafts): Qwen3-32B with the same EAGLE3 drafts publishes the same
 * accept lengths on A2 (2.04, 2.05) as on A3 (2.15, 2.05), so A2 shares whatever shapes A3's population.
 */
const LOW_ACCEPT_TAIL_BY_FAMILY: Readonly<Partial<Record<HardwareFamily, AcceptTail>>> = { ascend: { fraction: 0.06, acceptLength: 1.05 } };

/** Factor values and acceptance to run the model with (defaults: the stored fit). */
export interface Calibration {
  factors?: Factors;
  acceptance?: AcceptanceTable;
}

/** Where a deployment's profile comes from: its hardware, its model, the dataset it serves (null: unknown), and the calibration. */
export interface EfficiencyInputs extends Calibration {
  family: HardwareFamily;
  modelKey: string;
  dataset: string | null;
}

/** The efficiency profile of one deployment (its family's factors, the shared feature factors). */
export function efficiencyFor(inputs: EfficiencyInputs): EfficiencyProfile {
  const f = inputs.factors ?? DEFAULT_FACTORS;
  const value = (name: string): number => {
    const v = f[name] ?? FACTOR_SPECS[name]?.prior;
    if (v === undefined) throw new Error(`unknown efficiency factor '${name}'`);
    return v;
  };
  const family = (name: keyof FamilyEfficiency): number => value(`${inputs.family}.${name}`);
  return {
    family: {
      memory: family('memory'),
      gemm: family('gemm'),
      gemm8: family('gemm8'),
      attention: family('attention'),
      kernelScale: family('kernelScale'),
      expertUs: family('expertUs'),
      collectiveLatency: family('collectiveLatency'),
      stepCpuUs: family('stepCpuUs'),
      requestCpuUs: family('requestCpuUs'),
    },
    launchUs: value('host.launchUs'),
    link: value('link.efficiency'),
    speculative: {
      draftStepUs: value('spec.draftStepUs'),
      specCpuUs: value('spec.cpuUs'),
      acceptSpread: value('spec.acceptSpread'),
      acceptRate: acceptRateFor(inputs.acceptance ?? DEFAULT_ACCEPTANCE, inputs.modelKey, inputs.dataset),
      lowAcceptTail: LOW_ACCEPT_TAIL_BY_FAMILY[inputs.family] ?? null,
    },
    expertParallelPrefillScale: value('ep.prefillScale'),
    contextParallelPrefillScale: value('cp.prefillScale'),
    sparseAttentionScale: value('dsa.passScale'),
    rooflineSharpness: value('roofline.sharpness'),
    kernels: {
      norms: value('kernels.norms'),
      gqa: value('kernels.gqa'),
      mla: value('kernels.mla'),
      dsaIndexer: value('kernels.dsaIndexer'),
      linearAttention: value('kernels.linearAttention'),
      denseMlp: value('kernels.denseMlp'),
      moe: value('kernels.moe'),
      sharedExpert: value('kernels.sharedExpert'),
      quantPerGemm: value('kernels.quantPerGemm'),
    },
    transferLatencyUs: value('pd.transferLatencyUs'),
    frontEnd: { ingestUs: value('frontEnd.ingestUs'), hopUs: value('frontEnd.hopUs'), chunkUs: value('frontEnd.chunkUs') },
  };
}
