/**
 * The worker-selection policies of SGLang's router (`policies/*.rs`). Pure: a policy sees the
 * healthy, circuit-closed candidates with their load (the router's in-flight requests to each)
 * and the request's routing text, and returns the index it picks; randomness is injected.
 */
import { PrefixTree } from './prefix-tree.js';

export const POLICY_NAMES = ['random', 'round_robin', 'cache_aware', 'power_of_two'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export interface Candidate {
  url: string;
  load: number;
}

export interface Policy {
  readonly name: PolicyName;
  /** The index into `candidates` (never empty) of the worker to use. */
  select(candidates: readonly Candidate[], text: string): number;
}

/** A uniform draw in [0, 1). */
export type Random = () => number;

export interface CacheAwareSettings {
  cacheThreshold: number;
  balanceAbsThreshold: number;
  balanceRelThreshold: number;
}

function randomIndex(random: Random, length: number): number {
  return Math.min(length - 1, Math.floor(random() * length));
}

function leastLoaded(candidates: readonly Candidate[]): number {
  let best = 0;
  for (let i = 1; i < candidates.length; i++) if (candidates[i]!.load < candidates[best]!.load) best = i;
  return best;
}

class RandomPolicy implements Policy {
  readonly name = 'random';
  constructor(private readonly random: Random) {}
  select(candidates: readonly Candidate[]): number {
    return randomIndex(this.random, candidates.length);
  }
}

class RoundRobinPolicy implements Policy {
  readonly name = 'round_robin';
  private counter = 0;
  select(candidates: readonly Candidate[]): number {
    return this.counter++ % candidates.length;
  }
}

/**
 * Two distinct workers at random, the less loaded of them. SGLang polls `/v1/loads` for the load,
 * which SGLang's servers answer without the field it reads, so its router falls back to its own
 * in-flight count: the load used here.
 */
class PowerOfTwoPolicy implements Policy {
  readonly name = 'power_of_two';
  constructor(private readonly random: Random) {}
  select(candidates: readonly Candidate[]): number {
    if (candidates.length === 1) return 0;
    const first = randomIndex(this.random, candidates.length);
    const second = (first + 1 + randomIndex(this.random, candidates.length - 1)) % candidates.length;
    return candidates[second]!.load < candidates[first]!.load ? second : first;
  }
}

/**
 * Prefix affinity while the pool is balanced (cache_aware.rs): when the loads drift apart by more
 * than both thresholds the least loaded worker is taken; else the worker holding the longest
 * prefix of the text, if it covers more than `cacheThreshold` of it, else the least loaded. The
 * chosen worker's tree records the text either way.
 */
export class CacheAwarePolicy implements Policy {
  readonly name = 'cache_aware';
  readonly tree = new PrefixTree();
  constructor(private readonly settings: CacheAwareSettings) {}

  select(candidates: readonly Candidate[], text: string): number {
    const chosen = this.choose(candidates, text);
    this.tree.insert(text, candidates[chosen]!.url);
    return chosen;
  }

  private choose(candidates: readonly Candidate[], text: string): number {
    const loads = candidates.map((candidate) => candidate.load);
    const [max, min] = [Math.max(...loads), Math.min(...loads)];
    const { balanceAbsThreshold, balanceRelThreshold, cacheThreshold } = this.settings;
    if (max - min > balanceAbsThreshold && max > min * balanceRelThreshold) return leastLoaded(candidates);
    if (text.length === 0) return leastLoaded(candidates);
    const urls = new Set(candidates.map((candidate) => candidate.url));
    const match = this.tree.match(text, (tenant) => urls.has(tenant));
    if (match.tenant !== null && match.matched / text.length > cacheThreshold) {
      return candidates.findIndex((candidate) => candidate.url === match.tenant);
    }
    return leastLoaded(candidates);
  }
}

export interface PolicyOptions extends CacheAwareSettings {
  random: Random;
}

export function createPolicy(name: PolicyName, options: PolicyOptions): Policy {
  switch (name) {
    case 'random':
      return new RandomPolicy(options.random);
    case 'round_robin':
      return new RoundRobinPolicy();
    case 'power_of_two':
      return new PowerOfTwoPolicy(options.random);
    case 'cache_aware':
      return new CacheAwarePolicy(options);
  }
}
