/**
 * Speculative-decoding acceptance (EAGLE/MTP chains, top-k 1): each request gets its own
 * per-draft-token acceptance probability, and each verify pass accepts the bonus token plus the run of
 * consecutive accepted drafts. Requests differ, as published runs show, so the spread is per request,
 * not per iteration: a normal body around the mean, plus — where a stack shows one — a low tail of
 * requests whose drafts are almost never accepted.
 */
import type { AcceptTail } from '../model/efficiency.js';
import type { UniformSource } from '../text/seeded-random.js';

/** Standard normal draw (Box–Muller) from a uniform source. */
function normal(random: UniformSource): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** A low-acceptance tail as per-draft-token rate: `fraction` of requests accept drafts at `rate`. */
export interface TailRate {
  fraction: number;
  rate: number;
}

/** A request's own acceptance probability: N(mean, spread) clipped to [0.02, 0.98]. */
export function drawAcceptRate(random: UniformSource, mean: number, spread: number): number {
  return Math.min(0.98, Math.max(0.02, mean + spread * normal(random)));
}

/**
 * Whether the `index`-th request falls in a tail of `fraction` of all requests: systematic sampling
 * from a seeded `phase` in [0, 1) — every 1/fraction-th request, from a seeded start. Independent
 * draws would let a 7% tail over 64 requests range from 2 to 9 requests on the seed alone.
 */
export function inTail(index: number, fraction: number, phase: number): boolean {
  return Math.floor(phase + (index + 1) * fraction) > Math.floor(phase + index * fraction);
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

/** The per-draft-token rate whose chain yields `length` tokens per verify (bisection; clipped to the chain's range). */
export function rateForLength(length: number, draftTokens: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (expectedAcceptLength(mid, draftTokens) < length) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The body's per-draft-token rate that gives a whole workload the accept length `population`, as
 * bench_serving reports it (accepted tokens / verify passes, so slow tail requests weigh more): with
 * equal outputs, 1/population = (1 − f)/body + f/tail.
 */
export function bodyRateForPopulation(population: number, draftTokens: number, tail: AcceptTail | null): number {
  if (tail === null) return rateForLength(population, draftTokens);
  const bodyInverse = (1 / population - tail.fraction / tail.acceptLength) / (1 - tail.fraction);
  return rateForLength(bodyInverse > 0 ? 1 / bodyInverse : draftTokens, draftTokens);
}
