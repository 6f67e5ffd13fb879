/**
 * Speculative-decoding acceptance (EAGLE/MTP chains, top-k 1): each request gets its own
 * per-draft-token acceptance probability, and each verify pass accepts the bonus token plus the run of
 * consecutive accepted drafts. Requests differ, as published runs show, so the spread is per request,
 * not per iteration: a bell-shaped body around the mean, plus — where a stack shows one — a low tail of
 * requests whose drafts are almost never accepted.
 */
import type { AcceptTail } from '../model/efficiency.js';
import type { UniformSource } from '../text/seeded-random.js';

/** A low-acceptance tail as per-draft-token rate: `fraction` of requests accept drafts at `rate`. */
export interface TailRate {
  fraction: number;
  rate: number;
}

/** Fractional step of the golden-ratio sequence: any run of consecutive indices covers [0, 1) evenly. */
const GOLDEN_STEP = (Math.sqrt(5) - 1) / 2;

/**
 * The `index`-th request's own acceptance probability: uniform within ±√3·`spread` of `mean` (so
 * `spread` is its standard deviation), clipped to [0.02, 0.98]. The quantile walks the golden-ratio
 * sequence from the median, so any run of consecutive requests samples the spread evenly and a
 * single request gets the mean: with independent draws, the 4 requests of a concurrency-1 run
 * would move its accept length by ±0.3 on the seed alone. A bounded body keeps a few requests from
 * landing in a long tail, where a chain's length grows fastest.
 */
export function acceptRateAt(index: number, mean: number, spread: number): number {
  const u = (0.5 + index * GOLDEN_STEP) % 1;
  return Math.min(0.98, Math.max(0.02, mean + spread * Math.sqrt(3) * (2 * u - 1)));
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
