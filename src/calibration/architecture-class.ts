/**
 * The architecture class of a model: its attention kind × its MLP kind, read from the ModelSpec's
 * structure (never from its name), so that a model the catalog learns later is classed by what its
 * layers are. Leave-one-architecture-out cross-validation holds out every case of one class at once:
 * the factors are per hardware family and engine feature, and this shows how they carry to an
 * architecture the fit never saw.
 */
import type { ModelSpec } from '../deployment/index.js';

/**
 * `GQA`, `MLA` or `MLA+DSA` for softmax attention (MHA and MQA count as GQA: one kernel family, one
 * kernel factor), `sliding-window …` when some of those layers attend to a window, and `hybrid linear`
 * when some layers keep a fixed state instead of a KV cache: those layers change how a step scales
 * with context more than the kind of the few softmax layers left, so a hybrid is one class whatever
 * they are. A layer kind this does not know (a field added to ModelSpec later) leaves its model in the
 * class of its softmax layers until a line here names it.
 */
function attentionClass(m: ModelSpec): string {
  if (m.linearAttention !== undefined && m.linearAttention.fullAttentionLayers < m.layers) return 'hybrid linear';
  const softmax = m.mla === undefined ? 'GQA' : m.dsa === undefined ? 'MLA' : 'MLA+DSA';
  return (m.slidingWindow?.layers ?? 0) > 0 ? `sliding-window ${softmax}` : softmax;
}

/** The model's class, e.g. `GQA dense`, `MLA+DSA MoE`, `sliding-window GQA MoE`. */
export function architectureClass(m: ModelSpec): string {
  return `${attentionClass(m)} ${(m.experts ?? 0) > 0 ? 'MoE' : 'dense'}`;
}
