/**
 * How many kernels one forward pass launches, from what the model's layers are made of. At small
 * batch a decode step is bound by these kernels' latency (and the collectives'), not by bytes. The
 * count of each kind of block is an engine-feature factor (efficiency.ts, `kernels.*`): its prior is
 * the block's structure — e.g. MLA's absorbed decode is a fused q_a/kv_a projection, two norms, the
 * q_b projection, the W_UK and W_UV batched matmuls, RoPE, the KV store, attention and the output
 * projection — and the fit corrects it for the kernels SGLang fuses or adds, the same on every
 * hardware family, so a count learnt on one accelerator carries to another.
 */
import type { ModelSpec } from '../../deployment/index.js';
import { attentionLayers, denseLayers, linearAttentionLayers, moeLayers } from './params.js';

/** Kernels per block of each kind. */
export interface BlockKernels {
  /** Residual adds fused with the two RMSNorms of a decoder layer. */
  norms: number;
  /** GQA attention: QKV projection, RoPE, KV store, attention, output projection. */
  gqa: number;
  mla: number;
  /** DeepSeek sparse attention's lightning indexer. */
  dsaIndexer: number;
  /** Gated DeltaNet: projections, short convolution, gating, recurrence, gated norm, output. */
  linearAttention: number;
  /** Dense SwiGLU MLP: gate/up, activation, down. */
  denseMlp: number;
  /** Routed experts: router, top-k, token sort, two grouped GEMMs, activation, combine. */
  moe: number;
  /** A shared expert is one more SwiGLU MLP. */
  sharedExpert: number;
  /** Per-token-group activation quantisation before each 8-bit GEMM input. */
  quantPerGemm: number;
}

/** 8-bit GEMM inputs per block (each quantises its activations first). */
const QUANTISED_INPUTS = { gqa: 2, mla: 3, dsa: 1, linear: 2, dense: 2, moe: 2, shared: 1 };
/** Once per pass: embedding, final norm, LM head, sampling. */
const PASS_KERNELS = 5;
/**
 * The lightning indexer's key half: the key projection, LayerNorm, RoPE, Hadamard rotation, FP8
 * quantisation and the store into the index-key cache. SGLang runs it even where a short prompt needs
 * no selection, so that later steps find the keys.
 */
const INDEXER_KEY_KERNELS = 6;

/** Kernels of one full pass (all layers) and of one decoder layer on average. */
export interface KernelCounts {
  perLayer: number;
  perPass: number;
  /** Per decoder layer on average: the indexer kernels a pass skips when it computes only the keys (query half, logits, top-k). */
  indexerQueryHalfPerLayer: number;
}

/** Kernel counts of a model whose GEMMs take `quantizedActivations` (FP8/INT8 math) or not. */
export function kernelCounts(m: ModelSpec, quantizedActivations: boolean, k: BlockKernels): KernelCounts {
  const q = quantizedActivations ? k.quantPerGemm : 0;
  const attention = m.mla ? k.mla + q * QUANTISED_INPUTS.mla : k.gqa + q * QUANTISED_INPUTS.gqa;
  const indexer = m.dsa ? k.dsaIndexer + q * QUANTISED_INPUTS.dsa : 0;
  const moe = k.moe + q * QUANTISED_INPUTS.moe + (m.sharedIntermediate ? k.sharedExpert + q * QUANTISED_INPUTS.shared : 0);
  const total =
    m.layers * k.norms +
    attentionLayers(m) * (attention + indexer) +
    linearAttentionLayers(m) * (k.linearAttention + q * QUANTISED_INPUTS.linear) +
    denseLayers(m) * (k.denseMlp + q * QUANTISED_INPUTS.dense) +
    moeLayers(m) * moe;
  const queryHalf = Math.max(0, indexer - INDEXER_KEY_KERNELS);
  return { perLayer: total / m.layers, perPass: PASS_KERNELS, indexerQueryHalfPerLayer: (attentionLayers(m) * queryHalf) / m.layers };
}
