/**
 * Speculative acceptance per model, from the accept lengths the cases published. Acceptance is a
 * property of the model and its draft (and of the prompts), not of the hardware: each case's
 * published length gives the per-draft-token chain rate under its own draft-token count (and its
 * stack's low-acceptance tail), and a model's rate is the mean over its cases. Models without a
 * published length get the median of the others.
 */
import { median } from '../../core/stats.js';
import { bodyRateForPopulation } from '../engine/speculative.js';
import type { PreparedCase } from './case-runner.js';

export interface AcceptanceFit {
  rates: Record<string, number>;
  /** Rate of a model with no published accept length (null when no case published one). */
  fallback: number | null;
}


/** Per-model rates from the cases that ran speculative decoding and published an accept length. */
export function fitAcceptance(cases: readonly PreparedCase[]): AcceptanceFit {
  const byModel = new Map<string, number[]>();
  for (const p of cases) {
    const length = p.case.published.acceptLength;
    const verifier = p.resolved[p.resolved.length - 1]!;
    const spec = verifier.speculative;
    if (length === null || spec === null) continue;
    const rate = bodyRateForPopulation(length, spec.draftTokens, verifier.efficiency.speculative.lowAcceptTail);
    const list = byModel.get(verifier.model.key) ?? [];
    list.push(rate);
    byModel.set(verifier.model.key, list);
  }
  const rates: Record<string, number> = {};
  for (const [model, list] of byModel) rates[model] = list.reduce((a, b) => a + b, 0) / list.length;
  const perModel = Object.values(rates);
  return { rates, fallback: perModel.length > 0 ? median(perModel) : null };
}
