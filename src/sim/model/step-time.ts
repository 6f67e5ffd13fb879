/**
 * The step-time model (spec §3): roofline per op group — max(FLOPs / (η·peak), bytes / (η_m·HBM)) —
 * plus communication, kernel floors and CPU cost. Pure: a deployment and the work of one step in,
 * seconds out.
 */
import { allGatherSeconds, allReduceSeconds, allToAllSeconds } from './collectives.js';
import { contextParallelPass } from './context-parallel.js';
import type { Deployment } from './deployment.js';
import {
  attentionLayers,
  attentionParamsPerLayer,
  denseLayers,
  denseMlpParams,
  expertParams,
  linearAttentionLayers,
  linearAttentionParamsPerLayer,
  moeLayers,
  sharedExpertParams,
} from './params.js';
import { mathPeak } from './quantization.js';

/** One request's share of a step: `newTokens` processed on top of `context` tokens already cached. */
export interface RequestWork {
  newTokens: number;
  context: number;
  /** Extend (prefill) work rather than decode/verify. */
  prefill: boolean;
}

/** Time of one step, split into what the device does and what the host does. */
export interface StepTiming {
  /** Wall time of the step as the scheduler sees it. */
  duration: number;
  gpu: number;
  cpu: number;
}

const US = 1e-6;

/** Roofline time of one op group. */
function roofline(flops: number, bytes: number, peak: number, bandwidth: number): number {
  return Math.max(flops / peak, bytes / bandwidth);
}

/** Expected number of distinct local experts `N` tokens touch when each picks `k` of `E` (spec §3.2). */
export function expectedActiveExperts(experts: number, topK: number, ep: number, tokens: number): number {
  if (tokens <= 0) return 0;
  return (experts / ep) * (1 - Math.pow(1 - topK / experts, tokens));
}

/** Attention-core FLOPs and bytes of one rank's requests, per attention layer. */
function attentionCore(d: Deployment, work: readonly RequestWork[]): { flops: number; bytes: number; indexerFlops: number } {
  const m = d.model;
  const headsPerDevice = m.heads / d.attentionTp;
  let flops = 0;
  let bytes = 0;
  let indexerFlops = 0;
  for (const w of work) {
    const n = w.newTokens;
    const c = w.context;
    const full = c + n;
    const pairs = n * c + (n * n) / 2;
    if (m.mla) {
      const { kvLoraRank: rkv, ropeHeadDim: dr, nopeHeadDim: dn, vHeadDim: dv } = m.mla;
      const attended = m.dsa ? Math.min(full, m.dsa.topK) : full;
      if (w.prefill) {
        flops += 2 * headsPerDevice * (dn + dr + dv) * (m.dsa ? Math.min(pairs, n * m.dsa.topK) : pairs);
      } else {
        flops += 2 * headsPerDevice * (2 * rkv + dr) * n * attended;
      }
      bytes += attended * (rkv + dr) * d.kvElementBytes;
      if (m.dsa) {
        // Lightning indexer: every query scores every cached key (8-bit), keys read once.
        indexerFlops += (2 * m.dsa.indexHeads * m.dsa.indexHeadDim * (w.prefill ? pairs : n * full)) / (w.prefill ? d.attentionTp : 1);
        bytes += full * (m.dsa.indexHeadDim + 4);
      }
    } else {
      flops += 4 * headsPerDevice * m.headDim * pairs;
      bytes += full * 2 * Math.max(1, m.kvHeads / d.attentionTp) * m.headDim * d.kvElementBytes;
    }
  }
  return { flops, bytes, indexerFlops };
}

/** Linear-attention (Gated DeltaNet) time of one rank per step: recurrent state read+write per request. */
function linearAttentionTime(d: Deployment, work: readonly RequestWork[], peak: number, bandwidth: number): number {
  const la = d.model.linearAttention;
  if (!la || work.length === 0) return 0;
  const tokens = work.reduce((sum, w) => sum + w.newTokens, 0);
  const flops = (4 * la.valueHeads * la.keyHeadDim * la.valueHeadDim * tokens) / d.attentionTp;
  const bytes = 2 * work.length * (d.stateBytesPerRequest / Math.max(1, linearAttentionLayers(d.model)));
  return linearAttentionLayers(d.model) * roofline(flops, bytes, peak, bandwidth);
}

/**
 * Serial time of the day-0 sparse-attention prefill path (pure TP: a single scheduler rank). Context
 * parallel runs extends on the DP-attention path instead.
 */
function sparsePrefillTime(d: Deployment, ranks: readonly (readonly RequestWork[])[]): number {
  if (!d.model.dsa || d.attentionDp > 1 || d.prefillContextParallel > 1) return 0;
  const perToken = d.efficiency.features.dsa.pureTpPrefillUsPerTokenByArch[d.hardware.arch] ?? 0;
  let tokens = 0;
  for (const w of ranks[0] ?? []) if (w.prefill) tokens += w.newTokens;
  return tokens * perToken * US;
}

/**
 * Device time of one forward pass over `ranks` (the batch of each DP-attention rank), without
 * phase scaling. `layers` limits the pass to the first layers (a draft model is one layer).
 * Ranks synchronise on MoE, so the result is the slowest rank plus the shared MoE time. Under
 * prefill context parallel an extend pass runs as the CP group's slices plus the KV all-gather.
 */
export function forwardTime(d: Deployment, ranks: readonly (readonly RequestWork[])[], layers = d.model.layers): number {
  const m = d.model;
  if (d.prefillContextParallel > 1 && ranks.some((work) => work.some((w) => w.prefill))) {
    const cp = contextParallelPass(d, ranks);
    return forwardTime(cp.deployment, cp.ranks, layers) + attentionLayers(m) * (layers / m.layers) * cp.kvGatherPerLayer;
  }
  const hw = d.hardware;
  const e = d.efficiency.family;
  const bandwidth = hw.hbmTBs * 1e12 * e.memory;
  const peak = mathPeak(hw, d.quant.mathBits);
  const attentionPeak = mathPeak(hw, 16) * e.attention;
  const indexerPeak = mathPeak(hw, 8) * e.attention;
  const layerShare = layers / m.layers;
  const nMoe = m.experts ? Math.min(layers, Math.max(1, Math.round(moeLayers(m) * layerShare))) : 0;
  const nDense = Math.max(0, Math.min(layers - nMoe, denseLayers(m)));
  const nAttention = attentionLayers(m) * layerShare;
  const nLinear = linearAttentionLayers(m) * layerShare;
  const wb = d.quant.weightBytes;

  let globalTokens = 0;
  let anyWork = false;
  let slowest = 0;
  for (const work of ranks) {
    let tokens = 0;
    let logits = 0;
    for (const w of work) {
      tokens += w.newTokens;
      logits += w.prefill ? 1 : w.newTokens;
    }
    globalTokens += tokens;
    if (tokens === 0) continue;
    anyWork = true;
    const g = (tokens < 128 ? e.gemmSmall : e.gemm) * peak;
    const attnParams = attentionParamsPerLayer(m) / d.attentionTp;
    let t = nAttention * roofline(2 * tokens * attnParams, attnParams * wb, g, bandwidth);
    if (nLinear > 0) {
      const linParams = linearAttentionParamsPerLayer(m) / d.attentionTp;
      t += nLinear * roofline(2 * tokens * linParams, linParams * wb, g, bandwidth);
      t += linearAttentionTime(d, work, g, bandwidth) * layerShare;
    }
    if (nDense > 0 && m.intermediate > 0) {
      const mlp = denseMlpParams(m) / d.denseTp;
      t += nDense * roofline(2 * tokens * mlp, mlp * wb, g, bandwidth);
    }
    const core = attentionCore(d, work);
    t += nAttention * Math.max(core.flops / attentionPeak + core.indexerFlops / indexerPeak, core.bytes / bandwidth);
    // The LM head stays BF16; prefill needs logits of the last position only.
    const lmHead = (m.vocab * m.hidden) / d.lmHeadTp;
    t += roofline(2 * logits * lmHead, lmHead * 2, mathPeak(hw, 16) * (logits < 128 ? e.gemmSmall : e.gemm), bandwidth);
    // Two all-reduces per layer inside the attention-TP group (after attention and after the MLP).
    t += 2 * layers * allReduceSeconds(d, tokens * m.hidden * 2, d.attentionTp);
    slowest = Math.max(slowest, t);
  }
  if (!anyWork) return 0;

  let moe = 0;
  if (m.experts && nMoe > 0) {
    const k = m.expertsPerToken ?? 1;
    const expert = expertParams(m);
    const active = expectedActiveExperts(m.experts, k, d.ep, globalTokens);
    const g = (globalTokens * k) / m.experts >= 64 ? e.gemm : e.gemmSmall;
    moe += nMoe * roofline((2 * globalTokens * k * expert) / d.tp, (active * expert * wb) / d.expertTp, peak * g, bandwidth);
    const shared = sharedExpertParams(m);
    if (shared > 0) {
      const tokensPerGroup = globalTokens / d.attentionDp;
      moe += nMoe * roofline((2 * tokensPerGroup * shared) / d.attentionTp, (shared * wb) / d.attentionTp, peak * g, bandwidth);
    }
    if (d.ep > 1) {
      // DeepEP-style dispatch (8-bit) and combine (BF16) of each token's k expert copies.
      const copies = (globalTokens / d.tp) * k * m.hidden * ((d.ep - 1) / d.ep);
      moe += nMoe * (allToAllSeconds(d, copies, d.ep) + allToAllSeconds(d, copies * 2, d.ep));
    } else if (d.attentionDp > 1) {
      // TP-MoE under DP attention: all-gather tokens before and reduce-scatter after each MoE layer.
      moe += nMoe * 2 * allGatherSeconds(d, globalTokens * m.hidden * 2, d.tp);
    }
  }
  return slowest + moe;
}

/** Kernels per layer of a captured decode graph, and of the eager (prefill) path. */
function kernelsPerLayer(d: Deployment): { graph: number; eager: number } {
  const { family, features } = d.efficiency;
  const base = d.model.mla ? family.kernelsPerLayer.mla : family.kernelsPerLayer.gqa;
  const graph = base + (d.model.dsa ? features.dsa.graphKernelsPerLayerByFamily[d.hardware.family] : 0);
  return { graph, eager: graph + (d.model.dsa ? features.dsa.eagerKernelsPerLayer : 0) };
}

/**
 * Device time of one pass including kernel floors and the phase's efficiency scale. Graph-captured
 * decode pays the per-kernel floor; eager passes (prefill, no CUDA graph, batch above
 * cuda-graph-max-bs) cannot run faster than the host launches their kernels.
 */
export function passTime(d: Deployment, ranks: readonly (readonly RequestWork[])[], layers = d.model.layers): number {
  const raw = forwardTime(d, ranks, layers);
  if (raw === 0) return 0;
  const e = d.efficiency;
  const prefill = ranks.some((work) => work.some((w) => w.prefill));
  const maxBatch = Math.max(...ranks.map((work) => work.length));
  const kernels = kernelsPerLayer(d);
  const floor = layers * kernels.graph * d.hardware.kernelFloorUs * US;
  const eager = prefill || !d.cudaGraph || maxBatch > d.cudaGraphMaxBs;
  const sparse = (sparsePrefillTime(d, ranks) * layers) / d.model.layers;
  const gpu = (eager ? Math.max(raw, layers * kernels.eager * e.family.eagerLaunchUs * US) + floor : raw + floor) + sparse;
  return gpu * phaseScale(d, prefill);
}

/** Product of the family and feature multipliers for one phase. */
export function phaseScale(d: Deployment, prefill: boolean): number {
  const { family, features } = d.efficiency;
  let scale = prefill ? family.prefillScale : family.decodeScale;
  if (d.ep > 1 && prefill) scale *= features.expertParallel.prefillScale;
  if (d.prefillContextParallel > 1 && prefill) scale *= features.contextParallel.prefillScale;
  return scale;
}

/** Host time of one scheduler pass over `requests` running requests (`t_0 + t_req·B`). */
export function cpuTime(d: Deployment, requests: number): number {
  const e = d.efficiency.family;
  return (e.stepCpuUs + e.requestCpuUs * requests) * US;
}

/**
 * Time of one engine step. Decode steps under speculative decoding are whole iterations: draft
 * steps, a verify pass of `draftTokens` per request, the draft extend and the spec bookkeeping.
 * Extend steps under speculative decoding also run the draft model's prefill. The overlap scheduler
 * hides the host work behind the device work.
 */
export function stepTime(d: Deployment, ranks: readonly (readonly RequestWork[])[]): StepTiming {
  const prefill = ranks.some((work) => work.some((w) => w.prefill));
  const spec = d.speculative;
  let gpu: number;
  let exposedCpu = 0;
  if (spec && !prefill) {
    const verify = ranks.map((work) => work.map((w) => ({ newTokens: spec.draftTokens, context: w.context, prefill: false })));
    const single = ranks.map((work) => work.map((w) => ({ newTokens: 1, context: w.context, prefill: false })));
    const draftStep = d.efficiency.features.speculative.draftStepUs * US;
    gpu = passTime(d, verify) + spec.steps * (passTime(d, single, 1) + draftStep) + passTime(d, verify, 1) + draftStep;
    exposedCpu = d.efficiency.features.speculative.specCpuUs * US;
  } else {
    gpu = passTime(d, ranks);
    if (spec) gpu += passTime(d, ranks, 1);
  }
  const busiest = Math.max(0, ...ranks.map((work) => work.length));
  const cpu = cpuTime(d, busiest);
  return { duration: Math.max(gpu, cpu) + exposedCpu, gpu, cpu };
}
