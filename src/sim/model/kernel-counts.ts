/**
 * How many kernels one forward pass launches, from what the model's layers are made of. At small
 * batch a decode step is bound by these kernels' latency (and the collectives'), not by bytes; the
 * counts are structure, fixed a priori, so that the per-kernel time fitted on one architecture
 * carries to another (an MLA + MoE layer launches about twice the kernels of a GQA + dense one).
 */
import type { ModelSpec } from './catalog.js';
import { attentionLayers, denseLayers, linearAttentionLayers, moeLayers } from './params.js';

/** Residual adds fused with the two RMSNorms of a decoder layer. */
const NORM_KERNELS = 2;
/** GQA attention: QKV projection, RoPE, KV-cache store, attention, output projection. */
const GQA_KERNELS = 5;
/**
 * MLA attention (absorbed decode): fused q_a/kv_a projection, two norms, q_b projection, the W_UK and
 * W_UV batched matmuls, RoPE, KV store, attention (two kernels), output projection.
 */
const MLA_KERNELS = 11;
/** Gated DeltaNet: two input projections, short convolution, gating, recurrence, gated norm, output projection. */
const LINEAR_ATTENTION_KERNELS = 7;
/** Dense SwiGLU MLP: gate/up projection, activation, down projection. */
const DENSE_MLP_KERNELS = 3;
/** Routed experts: router GEMM, top-k, token sort/align, two grouped GEMMs, activation, weighted combine. */
const MOE_KERNELS = 7;
/** A shared expert is one more SwiGLU MLP. */
const SHARED_EXPERT_KERNELS = 3;
/** Per-token-group activation quantisation before an 8-bit GEMM. */
const QUANT_KERNELS = { gqa: 2, mla: 3, dsa: 1, linear: 2, dense: 2, moe: 2, shared: 1 };
/** Once per pass: embedding, final norm, LM head, sampling. */
const PASS_KERNELS = 5;

/** Kernels of one full pass (all layers) and of one decoder layer on average. */
export interface KernelCounts {
  perLayer: number;
  perPass: number;
}

/**
 * Kernel counts of a model whose GEMMs take `quantizedActivations` (FP8/INT8 math) or not. DeepSeek
 * sparse attention's lightning indexer adds `dsaIndexerKernels` per layer: a fitted feature factor,
 * because its day-0 kernels (projections, norm, RoPE, quantisation, scores, top-k and their
 * bookkeeping) are not one fixed structure across kernel libraries.
 */
export function kernelCounts(m: ModelSpec, quantizedActivations: boolean, dsaIndexerKernels: number): KernelCounts {
  const q = quantizedActivations ? 1 : 0;
  const softmax = attentionLayers(m);
  const linear = linearAttentionLayers(m);
  const attentionKernels = m.mla ? MLA_KERNELS + q * QUANT_KERNELS.mla : GQA_KERNELS + q * QUANT_KERNELS.gqa;
  const indexerKernels = m.dsa ? dsaIndexerKernels + q * QUANT_KERNELS.dsa : 0;
  const moeKernels = MOE_KERNELS + q * QUANT_KERNELS.moe + (m.sharedIntermediate ? SHARED_EXPERT_KERNELS + q * QUANT_KERNELS.shared : 0);
  const total =
    m.layers * NORM_KERNELS +
    softmax * (attentionKernels + indexerKernels) +
    linear * (LINEAR_ATTENTION_KERNELS + q * QUANT_KERNELS.linear) +
    denseLayers(m) * (DENSE_MLP_KERNELS + q * QUANT_KERNELS.dense) +
    moeLayers(m) * moeKernels;
  return { perLayer: total / m.layers, perPass: PASS_KERNELS };
}
