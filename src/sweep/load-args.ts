/**
 * The bench arguments of one sweep point: the sweep's load written into `--max-concurrency` or
 * `--request-rate`, and optionally the prompt count scaled with the concurrency so every point
 * runs the same number of "waves" (bench_serving's recipes use 4 prompts per concurrent slot).
 */
import type { BenchArgs } from '../bench/args/types.js';
import type { LoadKind } from './load-series.js';

/** A copy of `args` set to run at `load`; `promptsPerLoad` (concurrency only) overrides `--num-prompts`. */
export function argsAtLoad(args: BenchArgs, kind: LoadKind, load: number, promptsPerLoad: number | null): BenchArgs {
  if (kind === 'rate') return { ...args, request_rate: load };
  const numPrompts = promptsPerLoad === null ? args.num_prompts : Math.max(1, Math.round(promptsPerLoad * load));
  return { ...args, max_concurrency: load, num_prompts: numPrompts };
}
