/**
 * The messages between the configuration search and its worker threads. An outcome travels
 * without its candidate (the receiver has the same list) and without per-request records.
 */
import type { CandidateOutcome } from './config-search.js';
import type { ConfigCandidate } from './config-space.js';

export interface EvaluateRequest {
  id: number;
  index: number;
  tolerance: number;
}

export type WireOutcome = Omit<CandidateOutcome, 'candidate'>;

export type EvaluateReply =
  | { id: number; outcome: WireOutcome }
  | { id: number; error: { message: string; user: boolean } };

/** Strips what the main thread does not need from an outcome. */
export function toWire(outcome: CandidateOutcome): WireOutcome {
  const { skipped, chosen, perCard, runs } = outcome;
  return { skipped, chosen: chosen && { ...chosen, outputs: [] }, perCard, runs };
}

/** Re-attaches the main thread's candidate to an outcome from a worker. */
export function fromWire(outcome: WireOutcome, candidate: ConfigCandidate): CandidateOutcome {
  return { ...outcome, candidate };
}
