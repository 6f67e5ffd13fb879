/**
 * Speculative acceptance from the accept lengths the cases published. Acceptance is a property of
 * the model and its draft, and of the text they generate, not of the hardware: each case's published
 * length gives the per-draft-token chain rate under its own draft-token count (and its stack's
 * low-acceptance tail), and the rates of a model × dataset pair are averaged into the table
 * (src/sim/model/acceptance-table.ts) that estimates the pairs nobody published.
 */
import { bodyRateForPopulation, acceptanceTable, type AcceptanceTable } from '../sim/index.js';
import type { PreparedCase } from './case-runner.js';

/** The acceptance table of the cases that ran speculative decoding and published an accept length. */
export function fitAcceptance(cases: readonly PreparedCase[]): AcceptanceTable {
  return acceptanceTable(
    cases.flatMap((p) => {
      const length = p.case.published.acceptLength;
      const verifier = p.resolved[p.resolved.length - 1]!;
      const spec = verifier.speculative;
      if (length === null || spec === null) return [];
      const rate = bodyRateForPopulation(length, spec.draftTokens, verifier.efficiency.speculative.lowAcceptTail);
      return [{ model: verifier.model.key, dataset: p.config.dataset.name, rate }];
    }),
  );
}
