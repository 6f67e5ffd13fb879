/**
 * The step-time model (spec §3): per op group a roofline — max(FLOPs / (η·peak), bytes / (η_m·HBM)) —
 * plus collectives, the latency of every kernel the pass launches (graph replay) or the host's launch
 * floor (eager passes), and host time per scheduler pass. Pure: a deployment and the work of one
 * step in, seconds (and what they are made of) out.
 */
import { allGatherSeconds, allReduceSeconds, allToAllSeconds } from './collectives.js';
import { contextParallelPass } from './context-parallel.js';
import type { ResolvedInstance } from './resolve-instance.js';
import { kernelCounts, type KernelCounts } from './kernel-counts.js';
import {
  attentionLayers,
  attentionParamsPerLayer,
  denseLayers,
  denseMlpParams,
  expertParams,
  expertWidth,
  globalAttentionLayers,
  globalGeometry,
  linearAttentionLayers,
  linearAttentionParamsPerLayer,
  moeLayers,
  residualBlocks,
  sharedExpertParams,
  slidingWindowLayers,
  windowGeometry,
} from './params.js';
import type { AttentionGeometry } from '../../deployment/index.js';
import { mathPeak } from '../../deployment/index.js';
import type { RequestWork } from './request-work.js';

/** Time of one step, split into what the device does and what the host does. */
export interface StepTiming {
  /** Wall time of the step as the scheduler sees it. */
  duration: number;
  gpu: number;
  cpu: number;
  /**
   * The host's time to launch the step's eager passes (0 when every pass replays a graph). Under the
   * overlap scheduler the last step's results are processed only after this launch.
   */
  launch: number;
}

/** One kind of work in a pass, on the busiest device: math, bytes read, and its roofline time. */
export interface WorkPart {
  flops: number;
  bytes: number;
  seconds: number;
  /** The math alone and the bytes alone, at the achieved peak and bandwidth (which bounds it). */
  mathSeconds: number;
  memorySeconds: number;
}

export const PART_NAMES = ['attentionProjections', 'attentionCore', 'linearAttention', 'denseMlp', 'experts', 'sharedExpert', 'lmHead'] as const;
export type PartName = (typeof PART_NAMES)[number];

/** What one forward pass is made of, on the busiest device. */
export interface PassBreakdown {
  parts: Record<PartName, WorkPart>;
  /** All-reduces, all-gathers and all-to-alls of the pass (seconds). */
  collectives: number;
  /** Kernels launched by the pass. */
  kernels: number;
  /** Their latency inside the device: kernels × per-kernel time (seconds). */
  kernelLatency: number;
  /** Per-expert cost of the MoE layers beyond bytes and math: experts touched × per-expert time (seconds). */
  expertOverhead: number;
  /** Eager pass: the host's time to launch every kernel (seconds); 0 for graph replay. */
  launchFloor: number;
  /** Multiplier of the pass (expert- or context-parallel extend passes, sparse-attention models), 1 otherwise. */
  scale: number;
  /** How a DeepSeek-sparse-attention model's pass ran its indexer (null for other models). */
  indexer: IndexerPath | null;
  /** Device time of the pass. */
  seconds: number;
}

const US = 1e-6;

/**
 * Time of work bound by both math and memory: a roofline whose corner is rounded. Far from the
 * ridge it is the larger of the two; near it neither ceiling is reached (sharpness p: (t_m^p +
 * t_b^p)^(1/p); p → ∞ is the plain roofline's max).
 */
function bound(mathSeconds: number, memorySeconds: number, sharpness: number): number {
  const top = Math.max(mathSeconds, memorySeconds);
  if (top === 0) return 0;
  const a = mathSeconds / top;
  const b = memorySeconds / top;
  return top * Math.pow(Math.pow(a, sharpness) + Math.pow(b, sharpness), 1 / sharpness);
}

/** Adds an op group's roofline time to `parts[name]` (when a breakdown is wanted) and returns it. */
function group(parts: Record<PartName, WorkPart> | null, name: PartName, flops: number, bytes: number, peak: number, bandwidth: number, sharpness: number, times = 1): number {
  const seconds = bound(flops / peak, bytes / bandwidth, sharpness) * times;
  if (parts !== null) {
    const part = parts[name];
    part.flops += flops * times;
    part.bytes += bytes * times;
    part.seconds += seconds;
    part.mathSeconds += (flops / peak) * times;
    part.memorySeconds += (bytes / bandwidth) * times;
  }
  return seconds;
}

function emptyParts(): Record<PartName, WorkPart> {
  const empty = (): WorkPart => ({ flops: 0, bytes: 0, seconds: 0, mathSeconds: 0, memorySeconds: 0 });
  return {
    attentionProjections: empty(),
    attentionCore: empty(),
    linearAttention: empty(),
    denseMlp: empty(),
    experts: empty(),
    sharedExpert: empty(),
    lmHead: empty(),
  };
}

/** Expected number of distinct local experts `N` tokens touch when each picks `k` of `E` (spec §3.2). */
export function expectedActiveExperts(experts: number, topK: number, ep: number, tokens: number): number {
  if (tokens <= 0) return 0;
  return (experts / ep) * (1 - Math.pow(1 - topK / experts, tokens));
}

/** What one reach of softmax layers costs per query-key pair and per cached token read, on one device. */
interface ReachCost {
  /** The reach's share of the softmax layers. */
  share: number;
  flopsPerPair: number;
  kvBytesPerToken: number;
}

function reachCost(d: ResolvedInstance, g: AttentionGeometry, layers: number): ReachCost {
  return {
    share: layers / attentionLayers(d.model),
    // Scores (Q·K) and the weighted sum of values, per head on this device.
    flopsPerPair: 2 * (g.heads / d.attentionTp) * (g.headDim + g.valueHeadDim),
    kvBytesPerToken: Math.max(1, g.kvHeads / d.attentionTp) * (g.headDim + g.valueHeadDim) * d.kvElementBytes,
  };
}

/** Per-deployment constants of the pass model (computed once per deployment object). */
interface PassConstants {
  globalAttention: ReachCost;
  windowAttention: ReachCost;
  bandwidth: number;
  gemmPeak: number;
  attentionPeak: number;
  indexerPeak: number;
  lmHeadPeak: number;
  attentionParams: number;
  linearParams: number;
  denseParams: number;
  expertParams: number;
  sharedParams: number;
  lmHeadParams: number;
  kernels: KernelCounts;
  sharpness: number;
}

const constantsCache = new WeakMap<ResolvedInstance, PassConstants>();

function constantsOf(d: ResolvedInstance): PassConstants {
  let c = constantsCache.get(d);
  if (c === undefined) {
    const m = d.model;
    const e = d.efficiency.family;
    c = {
      globalAttention: reachCost(d, globalGeometry(m), globalAttentionLayers(m)),
      windowAttention: reachCost(d, windowGeometry(m), slidingWindowLayers(m)),
      bandwidth: d.hardware.hbmTBs * 1e12 * e.memory,
      gemmPeak: mathPeak(d.hardware, d.quant.mathBits) * (d.quant.mathBits < 16 ? e.gemm8 : e.gemm),
      attentionPeak: mathPeak(d.hardware, 16) * e.attention,
      indexerPeak: mathPeak(d.hardware, 8) * e.attention,
      lmHeadPeak: mathPeak(d.hardware, 16) * e.gemm,
      attentionParams: attentionParamsPerLayer(m) / d.attentionTp,
      linearParams: linearAttentionParamsPerLayer(m) / d.attentionTp,
      denseParams: m.intermediate > 0 ? denseMlpParams(m) / d.denseTp : 0,
      expertParams: expertParams(m),
      sharedParams: sharedExpertParams(m),
      // The LM head stays BF16.
      lmHeadParams: (m.vocab * m.hidden) / d.lmHeadTp,
      kernels: kernelCounts(m, d.quant.mathBits < 16, d.efficiency.kernels),
      sharpness: d.efficiency.rooflineSharpness,
    };
    constantsCache.set(d, c);
  }
  return c;
}

/**
 * Query-key pairs of `n` new tokens after `ctx` under chunked attention: each token at position p
 * attends to the (p mod size) + 1 tokens of its own chunk so far.
 */
function chunkPairs(ctx: number, n: number, size: number): number {
  const upTo = (tokens: number): number => {
    const whole = Math.floor(tokens / size);
    const rest = tokens - whole * size;
    return (whole * size * (size + 1)) / 2 + (rest * (rest + 1)) / 2;
  };
  return upTo(ctx + n) - upTo(ctx);
}

/** Attention-core math and bytes of one rank's requests, per softmax-attention layer. */
function attentionCore(d: ResolvedInstance, c: PassConstants, work: readonly RequestWork[], indexer: IndexerPath): WorkPart {
  const m = d.model;
  const headsPerDevice = m.heads / d.attentionTp;
  const window = m.slidingWindow;
  let flops = 0;
  let bytes = 0;
  let indexerFlops = 0;
  for (const w of work) {
    const n = w.newTokens;
    const ctx = w.context;
    const full = ctx + n;
    const pairs = n * ctx + (n * n) / 2;
    if (m.mla) {
      const { kvLoraRank: rkv, ropeHeadDim: dr, nopeHeadDim: dn, vHeadDim: dv } = m.mla;
      const attended = m.dsa ? Math.min(full, m.dsa.topK) : full;
      if (w.prefill) {
        flops += 2 * headsPerDevice * (dn + dr + dv) * (m.dsa ? Math.min(pairs, n * m.dsa.topK) : pairs);
      } else {
        flops += 2 * headsPerDevice * (2 * rkv + dr) * n * attended;
      }
      bytes += attended * (rkv + dr) * d.kvElementBytes;
      if (m.dsa && indexer === 'full') {
        // Lightning indexer: every query scores every cached key (8-bit), keys read once.
        indexerFlops += (2 * m.dsa.indexHeads * m.dsa.indexHeadDim * (w.prefill ? pairs : n * full)) / (w.prefill ? d.attentionTp : 1);
        bytes += full * (m.dsa.indexHeadDim + 4);
      }
    } else {
      // Each reach's layers attend (and read) what they see: the whole context, the last `size` tokens, or the current chunk.
      flops += c.globalAttention.share * c.globalAttention.flopsPerPair * pairs;
      bytes += c.globalAttention.share * c.globalAttention.kvBytesPerToken * full;
      if (window !== undefined) {
        const windowPairs = window.chunked ? chunkPairs(ctx, n, window.size) : n * Math.min(ctx, window.size) + (n * Math.min(n, window.size)) / 2;
        const windowFull = Math.min(full, (window.chunked ? ctx % window.size : window.size) + n);
        flops += c.windowAttention.share * c.windowAttention.flopsPerPair * windowPairs;
        bytes += c.windowAttention.share * c.windowAttention.kvBytesPerToken * windowFull;
      }
    }
  }
  const mathSeconds = flops / c.attentionPeak + indexerFlops / c.indexerPeak;
  const memorySeconds = bytes / c.bandwidth;
  return { flops: flops + indexerFlops, bytes, seconds: bound(mathSeconds, memorySeconds, c.sharpness), mathSeconds, memorySeconds };
}

interface RankPass {
  collectives: number;
  seconds: number;
}

/**
 * The attention side of one DP-attention rank: projections, core, dense MLP, LM head, TP all-reduces.
 * Fills `parts` when given (the breakdown); the hot path passes null and allocates nothing.
 */
function rankPass(
  d: ResolvedInstance,
  c: PassConstants,
  work: readonly RequestWork[],
  layers: number,
  indexer: IndexerPath,
  parts: Record<PartName, WorkPart> | null,
): RankPass | null {
  const m = d.model;
  let tokens = 0;
  let logits = 0;
  for (const w of work) {
    tokens += w.newTokens;
    logits += w.prefill ? 1 : w.newTokens;
  }
  if (tokens === 0) return null;
  const share = layers / m.layers;
  const nAttention = attentionLayers(m) * share;
  const nLinear = linearAttentionLayers(m) * share;
  const nMoe = m.experts ? moeLayersIn(d, layers) : 0;
  // A layer runs its dense MLP instead of the experts, or beside them (Gemma 4's parallel branch).
  const parallelMlp = denseLayers(m) + moeLayers(m) > m.layers;
  const nDense = parallelMlp ? denseLayers(m) * share : Math.max(0, Math.min(layers - nMoe, denseLayers(m)));
  const wb = d.quant.weightBytes;
  let seconds = group(parts, 'attentionProjections', 2 * tokens * c.attentionParams, c.attentionParams * wb, c.gemmPeak, c.bandwidth, c.sharpness, nAttention);
  const la = m.linearAttention;
  if (la && nLinear > 0) {
    seconds += group(parts, 'attentionProjections', 2 * tokens * c.linearParams, c.linearParams * wb, c.gemmPeak, c.bandwidth, c.sharpness, nLinear);
    // The recurrent core: the state is read and written once per request per layer.
    const stateFlops = (4 * la.valueHeads * la.keyHeadDim * la.valueHeadDim * tokens) / d.attentionTp;
    const stateBytes = 2 * work.length * (d.stateBytesPerRequest / linearAttentionLayers(m));
    seconds += group(parts, 'linearAttention', stateFlops, stateBytes, c.attentionPeak, c.bandwidth, c.sharpness, nLinear);
  }
  if (nDense > 0 && c.denseParams > 0) {
    seconds += group(parts, 'denseMlp', 2 * tokens * c.denseParams, c.denseParams * wb, c.gemmPeak, c.bandwidth, c.sharpness, nDense);
  }
  const core = attentionCore(d, c, work, indexer);
  seconds += core.seconds * nAttention;
  if (parts !== null) {
    const part = parts.attentionCore;
    part.flops += core.flops * nAttention;
    part.bytes += core.bytes * nAttention;
    part.seconds += core.seconds * nAttention;
    part.mathSeconds += core.mathSeconds * nAttention;
    part.memorySeconds += core.memorySeconds * nAttention;
  }
  seconds += group(parts, 'lmHead', 2 * logits * c.lmHeadParams, c.lmHeadParams * 2, c.lmHeadPeak, c.bandwidth, c.sharpness);
  // An all-reduce after each residual block inside the attention-TP group (after attention and after the MLP).
  const collectives = residualBlocks(m) * share * allReduceSeconds(d, tokens * m.hidden * 2, d.attentionTp);
  return { collectives, seconds: seconds + collectives };
}

/** MoE layers among the first `layers` layers of the pass (a draft pass is one layer, and MoE if the model is). */
function moeLayersIn(d: ResolvedInstance, layers: number): number {
  return Math.min(layers, Math.max(1, Math.round(moeLayers(d.model) * (layers / d.model.layers))));
}

/** The expert side of a pass: routed and shared experts on the global token count, and their communication. */
function expertPass(d: ResolvedInstance, c: PassConstants, globalTokens: number, layers: number, parts: Record<PartName, WorkPart> | null): { seconds: number; collectives: number; overhead: number } {
  const m = d.model;
  if (!m.experts || globalTokens === 0) return { seconds: 0, collectives: 0, overhead: 0 };
  const nMoe = moeLayersIn(d, layers);
  const k = m.expertsPerToken ?? 1;
  const wb = d.quant.weightBytes;
  const active = expectedActiveExperts(m.experts, k, d.ep, globalTokens);
  let seconds = group(parts, 'experts', (2 * globalTokens * k * c.expertParams) / d.tp, (active * c.expertParams * wb) / d.expertTp, c.gemmPeak, c.bandwidth, c.sharpness, nMoe);
  const overhead = nMoe * active * d.efficiency.family.expertUs * US;
  if (c.sharedParams > 0) {
    const tokensPerGroup = globalTokens / d.attentionDp;
    seconds += group(parts, 'sharedExpert', (2 * tokensPerGroup * c.sharedParams) / d.attentionTp, (c.sharedParams * wb) / d.attentionTp, c.gemmPeak, c.bandwidth, c.sharpness, nMoe);
  }
  let collectives = 0;
  if (d.expertAllToAll) {
    // DeepEP-style dispatch (8-bit) and combine (BF16) of each token's k expert copies.
    const copies = (globalTokens / d.tp) * k * expertWidth(m) * ((d.ep - 1) / d.ep);
    collectives = nMoe * (allToAllSeconds(d, copies, d.ep) + allToAllSeconds(d, copies * 2, d.ep));
  } else if (d.attentionDp > 1) {
    // MoE over the whole group under DP attention: all-gather tokens before and reduce-scatter after each MoE layer.
    collectives = nMoe * 2 * allGatherSeconds(d, globalTokens * m.hidden * 2, d.tp);
  }
  return { seconds: seconds + collectives + overhead, collectives, overhead };
}

/** Whether a pass over these ranks runs eagerly (prefill, no graph, or a batch beyond the captured sizes). */
function isEager(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[], prefill: boolean): boolean {
  if (prefill || !d.cudaGraph) return true;
  for (const work of ranks) if (work.length > d.cudaGraphMaxBs) return true;
  return false;
}

/** Whether a step over these ranks replays a captured CUDA graph (what SGLang's `cuda graph:` log field says). */
export function runsAsCudaGraph(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[]): boolean {
  return !isEager(d, ranks, ranks.some((work) => work.some((w) => w.prefill)));
}

/**
 * How a pass runs DeepSeek sparse attention's indexer: in full, or keys only, the query half (its
 * projection, the logits and the top-k) skipped, with the attention still sparse or, on Hopper and
 * Blackwell, dense. For models without the indexer the answer is unused.
 */
export type IndexerPath = 'full' | 'keys' | 'dense';

/**
 * Devices on which SGLang runs a short prompt's sparse-attention prefill as dense MHA (SM90, SM100–109).
 * SM120 (`blackwell-sm120`: RTX PRO 6000) is left out: SGLang's check stops at SM10x.
 */
const DENSE_SHORT_PREFILL_ARCHS: ReadonlySet<string> = new Set(['hopper', 'blackwell', 'blackwell-ultra']);
/** The most tokens (sequences summed, cached prefixes included) a rank's dense MHA prefill takes at once (SGLang's max chunk capacity). */
const DENSE_PREFILL_MAX_TOKENS = 128 * 1024;

/**
 * SGLang's short-prompt path for DeepSeek sparse attention on CUDA: an extend pass (`plainExtend`:
 * not under prefill context parallel) whose every sequence, cached prefix included, fits in the
 * indexer's top-k has nothing to select, so the indexer computes only the keys later steps read; on
 * Hopper and Blackwell the attention also runs as dense MHA where each rank's sequences fit in one
 * chunk of 128K tokens. The MTP layer's prefill after the target's runs in the same extend mode;
 * decode, verify and the draft's extend after a verify run the full indexer, and Ascend has no such path.
 */
function indexerPath(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[], plainExtend: boolean): IndexerPath {
  const dsa = d.model.dsa;
  if (dsa === undefined || !plainExtend || d.hardware.family !== 'nvidia') return 'full';
  let fitsDense = DENSE_SHORT_PREFILL_ARCHS.has(d.hardware.arch);
  for (const work of ranks) {
    let tokens = 0;
    for (const w of work) {
      if (w.context + w.newTokens > dsa.topK) return 'full';
      tokens += w.context + w.newTokens;
    }
    if (tokens > DENSE_PREFILL_MAX_TOKENS) fitsDense = false;
  }
  return fitsDense ? 'dense' : 'keys';
}

/**
 * One forward pass over `ranks` (the batch of each DP-attention rank), and with `withParts` what it
 * is made of on the busiest device. `layers` limits the pass to the first layers (a draft model is
 * one layer). Ranks synchronise on MoE, so the pass lasts as long as the slowest rank plus the
 * expert work. Under prefill context parallel an extend pass runs as the CP group's slices plus
 * the KV all-gather (`insideContextParallel`: this is one of those slices).
 */
function pass(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[], layers: number, withParts: boolean, insideContextParallel = false): PassBreakdown | null {
  const m = d.model;
  let prefill = false;
  let globalTokens = 0;
  for (const work of ranks) {
    for (const w of work) {
      globalTokens += w.newTokens;
      if (w.prefill) prefill = true;
    }
  }
  if (globalTokens === 0) return null;
  if (d.prefillContextParallel > 1 && prefill) {
    const cp = contextParallelPass(d, ranks);
    const inner = pass(cp.deployment, cp.ranks, layers, withParts, true);
    if (inner === null) return null;
    const gather = attentionLayers(m) * (layers / m.layers) * cp.kvGatherPerLayer;
    const scale = inner.scale * d.efficiency.contextParallelPrefillScale;
    return { ...inner, collectives: inner.collectives + gather, scale, seconds: (inner.seconds / inner.scale + gather) * scale };
  }
  const c = constantsOf(d);
  const indexer = indexerPath(d, ranks, prefill && !insideContextParallel);
  let slowest: RankPass | null = null;
  let slowestWork: readonly RequestWork[] = [];
  for (const work of ranks) {
    const rank = rankPass(d, c, work, layers, indexer, null);
    if (rank !== null && (slowest === null || rank.seconds > slowest.seconds)) {
      slowest = rank;
      slowestWork = work;
    }
  }
  if (slowest === null) return null;
  const parts = withParts ? emptyParts() : null;
  if (parts !== null) rankPass(d, c, slowestWork, layers, indexer, parts);
  const experts = expertPass(d, c, globalTokens, layers, parts);
  const kernels = layers * (c.kernels.perLayer - (indexer === 'full' ? 0 : c.kernels.indexerQueryHalfPerLayer)) + c.kernels.perPass;
  const e = d.efficiency.family;
  const kernelLatency = kernels * d.hardware.kernelFloorUs * e.kernelScale * US;
  const launchFloor = isEager(d, ranks, prefill) ? kernels * d.efficiency.launchUs * US : 0;
  const work = slowest.seconds + experts.seconds + kernelLatency;
  const sparseKernels = m.dsa !== undefined && indexer !== 'dense';
  const scale = (prefill && d.expertAllToAll ? d.efficiency.expertParallelPrefillScale : 1) * (sparseKernels ? d.efficiency.sparseAttentionScale : 1);
  return {
    parts: parts ?? NO_PARTS,
    collectives: slowest.collectives + experts.collectives,
    kernels,
    kernelLatency,
    expertOverhead: experts.overhead,
    launchFloor,
    scale,
    indexer: m.dsa === undefined ? null : indexer,
    seconds: Math.max(work, launchFloor) * scale,
  };
}

/** The parts of a pass computed without its breakdown (the engine's hot path). */
const NO_PARTS: Readonly<Record<PartName, WorkPart>> = Object.freeze(emptyParts());

/** What one forward pass is made of on the busiest device (null when there is no work). */
export function passBreakdown(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[], layers = d.model.layers): PassBreakdown | null {
  return pass(d, ranks, layers, true);
}

/** Host time of one scheduler pass over `requests` running requests (`t_0 + t_req·B`). */
export function cpuTime(d: ResolvedInstance, requests: number): number {
  const e = d.efficiency.family;
  return (e.stepCpuUs + e.requestCpuUs * requests) * US;
}

/** The passes one engine step runs: the target pass, and under speculative decoding the draft passes. */
export interface StepPasses {
  /** The target model's pass (extend, decode, or verify of every draft token). */
  target: RequestWork[][];
  /** One-layer draft passes per iteration (decode: the draft steps then the draft extend; extend: the draft prefill). */
  draft: RequestWork[][][];
  /** Fixed speculative costs of the step (seconds): per draft step, and the verify bookkeeping the host cannot overlap. */
  draftFixed: number;
  exposedCpu: number;
}

/**
 * The passes of a step. Decode steps under speculative decoding are whole iterations: draft steps,
 * a verify pass of `draftTokens` per request, the draft extend and the spec bookkeeping. Extend steps
 * under speculative decoding also run the draft model's prefill.
 */
export function stepPasses(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[]): StepPasses {
  const prefill = ranks.some((work) => work.some((w) => w.prefill));
  const spec = d.speculative;
  const target = ranks.map((work) => [...work]);
  if (!spec) return { target, draft: [], draftFixed: 0, exposedCpu: 0 };
  if (prefill) return { target, draft: [target], draftFixed: 0, exposedCpu: 0 };
  const verify = ranks.map((work) => work.map((w) => ({ newTokens: spec.draftTokens, context: w.context, prefill: false })));
  const single = ranks.map((work) => work.map((w) => ({ newTokens: 1, context: w.context, prefill: false })));
  const draftStep = d.efficiency.speculative.draftStepUs * US;
  return {
    target: verify,
    draft: [...Array.from({ length: spec.steps }, () => single), verify],
    draftFixed: (spec.steps + 1) * draftStep,
    exposedCpu: d.efficiency.speculative.specCpuUs * US,
  };
}

/**
 * Whether the device hides the host's per-step work (scheduling, processing the last result): under the
 * overlap scheduler, and under speculative decoding, whose share the device does not hide is `spec.cpuUs`.
 */
export function hidesHostWork(d: ResolvedInstance): boolean {
  return d.overlapSchedule || d.speculative !== null;
}

/**
 * Whether SGLang runs its overlap loop, which launches the next batch before it processes the last
 * one's results. It turns the loop off for speculative decoding (spec v1, SGLang 0.5.x).
 */
export function runsOverlapLoop(d: ResolvedInstance): boolean {
  return d.overlapSchedule && d.speculative === null;
}

/** Time of one engine step: the device's, or the host's where it is longer; without overlap, the two add up. */
export function stepTime(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[]): StepTiming {
  const passes = stepPasses(d, ranks);
  let gpu = passes.draftFixed;
  let launch = 0;
  const run = (work: readonly (readonly RequestWork[])[], layers: number): void => {
    const p = pass(d, work, layers, false);
    if (p === null) return;
    gpu += p.seconds;
    launch += p.launchFloor * p.scale;
  };
  run(passes.target, d.model.layers);
  for (const draft of passes.draft) run(draft, 1);
  let busiest = 0;
  for (const work of ranks) busiest = Math.max(busiest, work.length);
  const cpu = cpuTime(d, busiest);
  const busy = hidesHostWork(d) ? Math.max(gpu, cpu) : gpu + cpu;
  return { duration: busy + passes.exposedCpu, gpu, cpu, launch };
}
