/**
 * LoRA adapter choice per request (spec §4.7): uniform = Python `random.choice`, distinct =
 * round-robin, skewed = numpy `choice` with weights alpha^-i. No names ⇒ always null.
 */
import type { BenchRngs } from '../../core/rng.js';

export type LoraDistribution = 'uniform' | 'distinct' | 'skewed';

/** Returns a picker called once per request, in dispatch order (its draws interleave with Poisson draws). */
export function createLoraPicker(
  names: readonly string[] | null,
  distribution: LoraDistribution,
  zipfAlpha: number,
  rngs: BenchRngs,
): () => string | null {
  if (!names || names.length === 0) return () => null;
  if (distribution === 'distinct') {
    let next = 0;
    return () => {
      const name = names[next]!;
      next = (next + 1) % names.length;
      return name;
    };
  }
  if (distribution === 'skewed') {
    const weights = names.map((_, i) => zipfAlpha ** -i);
    const total = weights.reduce((sum, w) => sum + w, 0);
    const probabilities = weights.map((w) => w / total);
    return () => names[rngs.numpy.choice(names.length, probabilities)]!;
  }
  return () => rngs.python.choice(names);
}

/** The adapter warmup uses: always the first name (or none). */
export function warmupLora(names: readonly string[] | null): string | null {
  return names && names.length > 0 ? names[0]! : null;
}
