/**
 * Speculative-decoding acceptance (EAGLE/MTP chains, top-k 1): each request gets its own
 * per-draft-token acceptance probability around the model's mean, and each verify pass accepts
 * the bonus token plus the run of consecutive accepted drafts. Requests differ, as published runs
 * show (a heavy low tail), so the spread is per request, not per iteration.
 */
import type { UniformSource } from '../text/seeded-random.js';

/** Standard normal draw (Box–Muller) from a uniform source. */
function normal(random: UniformSource): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** A request's own acceptance probability: N(mean, spread) clipped to [0.02, 0.98]. */
export function drawAcceptRate(random: UniformSource, mean: number, spread: number): number {
  return Math.min(0.98, Math.max(0.02, mean + spread * normal(random)));
}

/** Tokens one verify pass yields: 1 + consecutive accepted drafts, at most `draftTokens`. */
export function drawAcceptedTokens(random: UniformSource, acceptRate: number, draftTokens: number): number {
  let tokens = 1;
  while (tokens < draftTokens && random() < acceptRate) tokens++;
  return tokens;
}

/** Mean tokens per verify pass of a chain with acceptance `rate` and `draftTokens` slots. */
export function expectedAcceptLength(rate: number, draftTokens: number): number {
  let sum = 0;
  for (let j = 0; j < draftTokens; j++) sum += Math.pow(rate, j);
  return sum;
}
