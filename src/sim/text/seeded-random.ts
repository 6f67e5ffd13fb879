/**
 * The sim's own deterministic draws (output lengths, word choices, reasoning splits).
 * A 32-bit mix of (seed, stream) so every request gets an independent, reproducible stream
 * regardless of the order in which requests interleave.
 */

/** A uniform draw in [0, 1). */
export type UniformSource = () => number;

/** Mixes two 32-bit integers into one well-spread seed (murmur3 finaliser). */
function mix(a: number, b: number): number {
  let h = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Creates a mulberry32 stream seeded by `(seed, stream)`. */
export function seededUniform(seed: number, stream: number): UniformSource {
  let state = mix(seed | 0, stream | 0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in [lo, hi] (inclusive). */
export function uniformInt(random: UniformSource, lo: number, hi: number): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}
