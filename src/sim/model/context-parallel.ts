/**
 * NSA prefill context parallel (`--enable-nsa-prefill-context-parallel`, DeepSeek sparse-attention
 * models): an extend pass splits each prompt round-robin over the CP group. Every rank runs the
 * projections, attention (all heads) and the lightning indexer for its own slice of tokens against the
 * whole prefix, with attention and dense-MLP weights replicated; the ranks all-gather each layer's KV
 * latent and indexer keys, and the MoE sees the whole prompt through the DP-attention gather/scatter.
 * Plain TP would instead all-reduce the full prompt's hidden states twice per layer.
 */
import { allGatherSeconds } from './collectives.js';
import type { ResolvedInstance } from './resolve-instance.js';
import { attentionLayers } from './params.js';
import type { RequestWork } from './request-work.js';

export interface ContextParallelPass {
  /** The deployment as the pass runs it: one CP rank per DP-attention rank, attention TP 1. */
  deployment: ResolvedInstance;
  /** The work of each CP rank. */
  ranks: RequestWork[][];
  /** KV all-gather of the pass, per attention layer (seconds). */
  kvGatherPerLayer: number;
}

/**
 * One request's extend split over `cp` ranks. A round-robin slice spreads its n/cp queries over the
 * whole prompt, so they see on average c + (n − n/cp)/2 earlier tokens: that keeps each rank's causal
 * query-key pairs at exactly 1/cp of the request's (n·c + n²/2).
 */
function slice(work: RequestWork, cp: number): RequestWork {
  const n = work.newTokens / cp;
  return { newTokens: n, context: work.context + (work.newTokens - n) / 2, prefill: true };
}

const groupDeployments = new WeakMap<ResolvedInstance, ResolvedInstance>();

/** The deployment as the CP group runs an extend pass (one object per deployment, so its pass constants are computed once). */
function groupDeployment(d: ResolvedInstance): ResolvedInstance {
  let group = groupDeployments.get(d);
  if (group === undefined) {
    group = { ...d, attentionDp: d.prefillContextParallel, attentionTp: 1, denseTp: 1, prefillContextParallel: 1 };
    groupDeployments.set(d, group);
  }
  return group;
}

/** The extend pass `ranks` (one scheduler rank) as the context-parallel group runs it. */
export function contextParallelPass(d: ResolvedInstance, ranks: readonly (readonly RequestWork[])[]): ContextParallelPass {
  const cp = d.prefillContextParallel;
  const work = ranks.flat();
  const split: RequestWork[][] = Array.from({ length: cp }, (_, r) =>
    work.filter((w) => w.prefill || r === 0).map((w) => (w.prefill ? slice(w, cp) : w)),
  );
  const prompted = work.reduce((sum, w) => sum + (w.prefill ? w.newTokens : 0), 0);
  const kvPerTokenPerLayer = d.kvBytesPerTokenPerDevice / attentionLayers(d.model);
  return {
    deployment: groupDeployment(d),
    ranks: split,
    kvGatherPerLayer: allGatherSeconds(d, prompted * kvPerTokenPerLayer, cp),
  };
}
