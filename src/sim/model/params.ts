/**
 * Parameter and KV-cache sizes derived from a model's architecture (spec §3.2, §5).
 * Weights only (norms and biases are negligible); whole model, no parallel split.
 */
import type { ModelSpec } from '../../deployment/index.js';

/** Weights of one attention block (Q/K/V/O projections; MLA low-rank projections and DSA indexer). */
export function attentionParamsPerLayer(m: ModelSpec): number {
  const h = m.hidden;
  if (m.mla) {
    const { qLoraRank: rq, kvLoraRank: rkv, ropeHeadDim: dr, nopeHeadDim: dn, vHeadDim: dv } = m.mla;
    let p = h * rq + rq * m.heads * (dn + dr) + h * (rkv + dr) + rkv * m.heads * (dn + dv) + m.heads * dv * h;
    if (m.dsa) p += rq * m.dsa.indexHeads * m.dsa.indexHeadDim + h * m.dsa.indexHeadDim + h * m.dsa.indexHeads;
    return p;
  }
  return h * m.heads * m.headDim + 2 * h * m.kvHeads * m.headDim + m.heads * m.headDim * h;
}

/** Weights of one linear-attention (Gated DeltaNet) block: q/k projections, v/gate/out projections. */
export function linearAttentionParamsPerLayer(m: ModelSpec): number {
  const la = m.linearAttention;
  if (!la) return 0;
  return 2 * m.hidden * la.keyHeads * la.keyHeadDim + 3 * m.hidden * la.valueHeads * la.valueHeadDim;
}

/** Layers with softmax attention (and therefore a KV cache). */
export function attentionLayers(m: ModelSpec): number {
  return m.linearAttention ? m.linearAttention.fullAttentionLayers : m.layers;
}

/** Layers with linear attention (fixed per-request state, no KV growth). */
export function linearAttentionLayers(m: ModelSpec): number {
  return m.layers - attentionLayers(m);
}

/** Mean attention-block weights per layer, mixing softmax and linear layers. */
export function meanAttentionParams(m: ModelSpec): number {
  const full = attentionLayers(m) * attentionParamsPerLayer(m);
  const linear = linearAttentionLayers(m) * linearAttentionParamsPerLayer(m);
  return (full + linear) / m.layers;
}

/** Weights of one routed expert (SwiGLU: gate, up, down). */
export function expertParams(m: ModelSpec): number {
  return 3 * m.hidden * (m.moeIntermediate ?? 0);
}

/** Weights of the shared expert of one MoE layer (0 when none). */
export function sharedExpertParams(m: ModelSpec): number {
  return 3 * m.hidden * (m.sharedIntermediate ?? 0);
}

/** Weights of one dense MLP. */
export function denseMlpParams(m: ModelSpec): number {
  return 3 * m.hidden * m.intermediate;
}

/** Layers whose MLP is a mixture of experts. */
export function moeLayers(m: ModelSpec): number {
  return m.experts ? m.layers - m.denseLayers : 0;
}

/** Layers whose MLP is dense. */
export function denseLayers(m: ModelSpec): number {
  return m.experts ? m.denseLayers : m.layers;
}

/** Embedding plus LM head weights. */
export function embeddingParams(m: ModelSpec): number {
  return m.vocab * m.hidden * (m.tiedEmbeddings ? 1 : 2);
}

/** Attention and MLP weights of every layer, counting `experts` routed experts per MoE layer. */
function layerParams(m: ModelSpec, experts: number): number {
  return m.layers * meanAttentionParams(m) + denseLayers(m) * denseMlpParams(m) + moeLayers(m) * (experts * expertParams(m) + sharedExpertParams(m));
}

/** Frames one Qwen-VL patch embedding spans (temporal_patch_size): a still image is fed as two equal frames. */
const VISION_TEMPORAL_PATCH = 2;

/**
 * Weights of the vision tower (0 for a text-only model): patch embedding, encoder blocks (attention
 * and MLP), learned position embeddings, and the mergers that project 2×2 patches into the model.
 */
function visionParams(m: ModelSpec): number {
  const v = m.vision;
  if (v === undefined) return 0;
  const patchEmbedding = 3 * VISION_TEMPORAL_PATCH * v.patchSize * v.patchSize * v.hidden;
  const block = 4 * v.hidden * v.hidden + (v.gatedMlp ? 3 : 2) * v.hidden * v.intermediate;
  const merged = v.hidden * v.mergeSize * v.mergeSize;
  const merger = merged * merged + merged * m.hidden;
  return patchEmbedding + v.depth * block + v.positionEmbeddings * v.hidden + v.mergers * merger;
}

/** Every weight of the model (without the MTP module), the vision tower included. */
export function totalParams(m: ModelSpec): number {
  return layerParams(m, m.experts ?? 0) + embeddingParams(m) + visionParams(m);
}

/** Weights a single token touches (top-k experts, shared expert, LM head). */
export function activeParams(m: ModelSpec): number {
  return layerParams(m, m.expertsPerToken ?? 0) + m.vocab * m.hidden;
}

/** Weights of one whole decoder layer of the average kind (used to size MTP / draft layers). */
export function meanLayerParams(m: ModelSpec): number {
  const mlp = m.experts
    ? (m.experts * expertParams(m) + sharedExpertParams(m))
    : denseMlpParams(m);
  return meanAttentionParams(m) + mlp;
}

/** Softmax-attention layers that attend to a window of recent tokens (0 when the model has none). */
export function slidingWindowLayers(m: ModelSpec): number {
  return m.slidingWindow?.layers ?? 0;
}

/** Softmax-attention layers that attend to the whole context. */
export function globalAttentionLayers(m: ModelSpec): number {
  return attentionLayers(m) - slidingWindowLayers(m);
}

/**
 * KV-cache bytes one token takes in one softmax-attention layer on one device. MLA keeps one latent per
 * token that TP does not split; GQA splits KV heads over the attention-TP group (replicated when the group
 * exceeds the head count). DSA adds the 8-bit indexer key plus a 4-byte scale. FP8 MLA uses FlashMLA's
 * 656-byte layout (512 FP8 latent + scales + 64 BF16 RoPE dims).
 */
export function kvBytesPerTokenPerLayer(m: ModelSpec, kvElementBytes: number, attentionTp: number): number {
  if (m.mla) {
    const latent = m.mla.kvLoraRank + m.mla.ropeHeadDim;
    const perLayer = kvElementBytes < 2 ? 656 : latent * kvElementBytes;
    return m.dsa ? perLayer + m.dsa.indexHeadDim + 4 : perLayer;
  }
  const headsPerDevice = Math.max(1, m.kvHeads / attentionTp);
  return 2 * headsPerDevice * m.headDim * kvElementBytes;
}

/**
 * KV-cache bytes per token on one device over every softmax-attention layer, window layers included:
 * what a token costs while the context fits in every window (and what a model without windows always pays).
 */
export function kvBytesPerTokenPerDevice(m: ModelSpec, kvElementBytes: number, attentionTp: number): number {
  return kvBytesPerTokenPerLayer(m, kvElementBytes, attentionTp) * attentionLayers(m);
}

/**
 * KV-cache bytes a request with `tokens` of context holds on one device. Window layers with a pool of their
 * own keep at most `slidingWindow.size` tokens; without one (Gemma 3 under SGLang) they keep every token
 * though they attend to the window only.
 */
export function kvBytesPerRequestPerDevice(m: ModelSpec, kvElementBytes: number, attentionTp: number, tokens: number): number {
  const window = m.slidingWindow;
  const windowTokens = window?.separatePool ? Math.min(tokens, window.size) : tokens;
  const perLayer = kvBytesPerTokenPerLayer(m, kvElementBytes, attentionTp);
  return perLayer * (globalAttentionLayers(m) * tokens + slidingWindowLayers(m) * windowTokens);
}

/** SGLang's default `--swa-full-tokens-ratio`: tokens of the window layers' pool per token of the full pool. */
export const SWA_FULL_TOKENS_RATIO = 0.8;

/**
 * Static-pool bytes per token of KV capacity on one device, the divisor of SGLang's pool size. With a
 * separate window pool (hybrid SWA memory) SGLang splits the memory so the window layers get
 * `swaFullTokensRatio` tokens per full-pool token; the capacity in tokens is the full pool's.
 */
export function kvPoolBytesPerTokenPerDevice(
  m: ModelSpec,
  kvElementBytes: number,
  attentionTp: number,
  swaFullTokensRatio = SWA_FULL_TOKENS_RATIO,
): number {
  const separate = m.slidingWindow?.separatePool ? slidingWindowLayers(m) : 0;
  const layers = attentionLayers(m) - separate + separate * swaFullTokensRatio;
  return kvBytesPerTokenPerLayer(m, kvElementBytes, attentionTp) * layers;
}

/** Linear-attention recurrent state per request on one device (Qwen3-Next), split over attention TP. */
export function linearStateBytesPerRequest(m: ModelSpec, attentionTp: number): number {
  const la = m.linearAttention;
  if (!la) return 0;
  return (linearAttentionLayers(m) * la.valueHeads * la.keyHeadDim * la.valueHeadDim * la.stateBytes) / attentionTp;
}
