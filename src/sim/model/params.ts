/**
 * Parameter and KV-cache sizes derived from a model's architecture (spec §3.2, §5).
 * Weights only (norms and biases are negligible); whole model, no parallel split.
 */
import type { AttentionGeometry, ModelSpec } from '../../deployment/index.js';

/** The shape the model's fields give a softmax layer (before any per-kind override). */
function modelGeometry(m: ModelSpec): AttentionGeometry {
  return {
    heads: m.heads,
    kvHeads: m.kvHeads,
    headDim: m.headDim,
    valueHeadDim: m.valueHeadDim ?? m.headDim,
    keyIsValue: m.keyIsValue ?? false,
    outputGate: m.attentionOutputGate ?? false,
  };
}

/** The shape of the layers that attend to the whole context. */
export function globalGeometry(m: ModelSpec): AttentionGeometry {
  return m.globalAttention ?? modelGeometry(m);
}

/** The shape of the sliding-window (or chunked) layers. */
export function windowGeometry(m: ModelSpec): AttentionGeometry {
  return m.slidingWindow?.attention ?? modelGeometry(m);
}

/** Q (and its output gate), K, V and O projection weights of one grouped-query attention layer of shape `g`. */
function gqaParams(hidden: number, g: AttentionGeometry): number {
  const query = g.heads * g.headDim * (g.outputGate ? 2 : 1);
  const kv = g.kvHeads * (g.headDim + (g.keyIsValue ? 0 : g.valueHeadDim));
  return hidden * query + hidden * kv + g.heads * g.valueHeadDim * hidden;
}

/** Weights of one softmax-attention block, averaged over the kinds (MLA low-rank projections and DSA indexer; GQA per shape). */
export function attentionParamsPerLayer(m: ModelSpec): number {
  const h = m.hidden;
  if (m.mla) {
    const { qLoraRank: rq, kvLoraRank: rkv, ropeHeadDim: dr, nopeHeadDim: dn, vHeadDim: dv } = m.mla;
    // Queries come from a low-rank latent, or straight from the hidden state where there is none (rank 0).
    const queryInput = rq > 0 ? rq : h;
    const queryLatent = rq > 0 ? h * rq : 0;
    let p = queryLatent + queryInput * m.heads * (dn + dr) + h * (rkv + dr) + rkv * m.heads * (dn + dv) + m.heads * dv * h;
    if (m.dsa) p += queryInput * m.dsa.indexHeads * m.dsa.indexHeadDim + h * m.dsa.indexHeadDim + h * m.dsa.indexHeads;
    return p;
  }
  const window = slidingWindowLayers(m);
  const global = globalAttentionLayers(m);
  return (global * gqaParams(h, globalGeometry(m)) + window * gqaParams(h, windowGeometry(m))) / (global + window);
}

/** Weights of one recurrent block: queries and keys (Mamba-2's B and C), values, gate and output. */
export function linearAttentionParamsPerLayer(m: ModelSpec): number {
  const la = m.linearAttention;
  if (!la) return 0;
  return 2 * m.hidden * la.keyHeads * la.keyHeadDim + 3 * m.hidden * la.valueHeads * la.valueHeadDim;
}

/** Layers with softmax attention (and therefore a KV cache). */
export function attentionLayers(m: ModelSpec): number {
  return m.linearAttention ? m.linearAttention.fullAttentionLayers : m.layers;
}

/** Layers with a recurrent mixer (fixed per-request state, no KV growth). */
export function linearAttentionLayers(m: ModelSpec): number {
  return m.linearAttention?.layers ?? 0;
}

/** Mean mixer weights per layer, mixing softmax and recurrent layers (blocks with no mixer count as 0). */
export function meanAttentionParams(m: ModelSpec): number {
  const full = attentionLayers(m) * attentionParamsPerLayer(m);
  const linear = linearAttentionLayers(m) * linearAttentionParamsPerLayer(m);
  return (full + linear) / m.layers;
}

/** Weight matrices of one MLP: gate, up and down (SwiGLU, GeGLU), or up and down (Nemotron-H's squared ReLU). */
function mlpMatrices(m: ModelSpec): number {
  return m.ungatedMlp ? 2 : 3;
}

/** The width tokens have when they reach the routed experts (and are dispatched to them). */
export function expertWidth(m: ModelSpec): number {
  return m.expertLatent ?? m.hidden;
}

/** Weights of one routed expert. */
export function expertParams(m: ModelSpec): number {
  return mlpMatrices(m) * expertWidth(m) * (m.moeIntermediate ?? 0);
}

/**
 * Weights of one MoE layer that every token runs: the shared expert (0 when none) and, where the
 * experts work in a latent width, the projections down to it and back.
 */
export function sharedExpertParams(m: ModelSpec): number {
  const latent = m.expertLatent === undefined ? 0 : 2 * m.hidden * m.expertLatent;
  return mlpMatrices(m) * m.hidden * (m.sharedIntermediate ?? 0) + latent;
}

/** Weights of one dense MLP. */
export function denseMlpParams(m: ModelSpec): number {
  return mlpMatrices(m) * m.hidden * m.intermediate;
}

/** Layers with routed experts. */
export function moeLayers(m: ModelSpec): number {
  if (!m.experts) return 0;
  return m.expertLayers ?? m.layers - m.denseLayers;
}

/** Layers with a dense MLP. */
export function denseLayers(m: ModelSpec): number {
  return m.denseLayers;
}

/**
 * Residual blocks of the stack: each mixer and each MLP, a dense MLP beside experts counting once with
 * them (Gemma 4); under tensor parallelism each ends in an all-reduce. Two per layer in most models,
 * one per layer in Nemotron-H, whose layers are single blocks.
 */
export function residualBlocks(m: ModelSpec): number {
  return attentionLayers(m) + linearAttentionLayers(m) + Math.min(m.layers, denseLayers(m) + moeLayers(m));
}

/** Embedding plus LM head weights, and weights only looked up (per-layer embeddings). */
export function embeddingParams(m: ModelSpec): number {
  return m.vocab * m.hidden * (m.tiedEmbeddings ? 1 : 2) + (m.lookupParams ?? 0);
}

/** Attention and MLP weights of every layer, counting `experts` routed experts per MoE layer. */
function layerParams(m: ModelSpec, experts: number): number {
  return m.layers * meanAttentionParams(m) + denseLayers(m) * denseMlpParams(m) + moeLayers(m) * (experts * expertParams(m) + sharedExpertParams(m));
}

/**
 * Weights of the vision tower (0 for a text-only model): each encoder stack's blocks (attention and
 * MLP) and the weights around them (embeddings, adapters, projector).
 */
function visionParams(m: ModelSpec): number {
  const v = m.vision;
  if (v === undefined) return 0;
  const blocks = v.encoders.reduce((sum, e) => sum + e.layers * (4 * e.width * e.width + (e.gatedMlp ? 3 : 2) * e.width * e.intermediate), 0);
  return blocks + v.otherWeights.reduce((sum, w) => sum + w.rows * w.cols, 0);
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
  const mlp = m.experts ? m.experts * expertParams(m) + sharedExpertParams(m) : denseMlpParams(m);
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

/** Softmax layers of each reach that keep a KV cache of their own (shared-KV layers read another's). */
function cachingLayers(m: ModelSpec): { global: number; window: number } {
  const shared = m.sharedKvLayers ?? { window: 0, global: 0 };
  return { global: globalAttentionLayers(m) - shared.global, window: slidingWindowLayers(m) - shared.window };
}

/**
 * KV-cache bytes one token takes in one softmax layer of shape `g` on one device. MLA keeps one latent per
 * token that TP does not split; GQA splits KV heads over the attention-TP group (replicated when the group
 * exceeds the head count), K and V alike. DSA adds the 8-bit indexer key plus a 4-byte
 * scale. FP8 MLA uses FlashMLA's 656-byte layout (512 FP8 latent + scales + 64 BF16 RoPE dims).
 */
function kvBytesPerLayer(m: ModelSpec, g: AttentionGeometry, kvElementBytes: number, attentionTp: number): number {
  if (m.mla) {
    const latent = m.mla.kvLoraRank + m.mla.ropeHeadDim;
    const perLayer = kvElementBytes < 2 ? 656 : latent * kvElementBytes;
    return m.dsa ? perLayer + m.dsa.indexHeadDim + 4 : perLayer;
  }
  const headsPerDevice = Math.max(1, g.kvHeads / attentionTp);
  return headsPerDevice * (g.headDim + g.valueHeadDim) * kvElementBytes;
}

/** KV bytes per token of one global layer and of one window layer, on one device. */
function kvBytesByReach(m: ModelSpec, kvElementBytes: number, attentionTp: number): { global: number; window: number } {
  return {
    global: kvBytesPerLayer(m, globalGeometry(m), kvElementBytes, attentionTp),
    window: kvBytesPerLayer(m, windowGeometry(m), kvElementBytes, attentionTp),
  };
}

/**
 * KV-cache bytes per token on one device over every caching softmax layer, window layers included:
 * what a token costs while the context fits in every window (and what a model without windows always pays).
 */
export function kvBytesPerTokenPerDevice(m: ModelSpec, kvElementBytes: number, attentionTp: number): number {
  const layers = cachingLayers(m);
  const bytes = kvBytesByReach(m, kvElementBytes, attentionTp);
  return layers.global * bytes.global + layers.window * bytes.window;
}

/**
 * KV-cache bytes a request with `tokens` of context holds on one device. Window layers with a pool of their
 * own keep at most `slidingWindow.size` tokens; without one (Gemma 3 under SGLang) they keep every token
 * though they attend to the window only.
 */
export function kvBytesPerRequestPerDevice(m: ModelSpec, kvElementBytes: number, attentionTp: number, tokens: number): number {
  const window = m.slidingWindow;
  const windowTokens = window?.separatePool ? Math.min(tokens, window.size) : tokens;
  const layers = cachingLayers(m);
  const bytes = kvBytesByReach(m, kvElementBytes, attentionTp);
  return layers.global * bytes.global * tokens + layers.window * bytes.window * windowTokens;
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
  const layers = cachingLayers(m);
  const bytes = kvBytesByReach(m, kvElementBytes, attentionTp);
  const windowShare = m.slidingWindow?.separatePool ? swaFullTokensRatio : 1;
  return layers.global * bytes.global + layers.window * bytes.window * windowShare;
}

/** Bytes of the short-convolution state: SGLang keeps it in the model's 16-bit dtype. */
const CONV_STATE_BYTES = 2;

/** Recurrent state (and short-convolution state) per request on one device over every recurrent layer, split over attention TP. */
export function linearStateBytesPerRequest(m: ModelSpec, attentionTp: number): number {
  const la = m.linearAttention;
  if (!la) return 0;
  const recurrent = la.valueHeads * la.keyHeadDim * la.valueHeadDim * la.stateBytes;
  const conv = Math.max(0, la.convKernel - 1) * la.convChannels * CONV_STATE_BYTES;
  return (linearAttentionLayers(m) * (recurrent + conv)) / attentionTp;
}
