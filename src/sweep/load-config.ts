/**
 * The run config of one sweep point: the sweep's load written into the concurrency limit or the
 * request rate, and optionally the prompt count scaled with the concurrency so every point runs
 * the same number of "waves" (bench_serving's recipes use 4 prompts per concurrent slot).
 */
import { deepFreeze } from '../core/deep-freeze.js';
import type { BenchRunConfig } from '../bench/index.js';
import type { LoadKind } from './load-series.js';

/** `config` set to run at `load`; `promptsPerLoad` (concurrency only) overrides `--num-prompts`. */
export function configAtLoad(config: BenchRunConfig, kind: LoadKind, load: number, promptsPerLoad: number | null): BenchRunConfig {
  if (kind === 'rate') return deepFreeze({ ...config, load: { ...config.load, requestRate: load } });
  const numPrompts = promptsPerLoad === null ? config.dataset.numPrompts : Math.max(1, Math.round(promptsPerLoad * load));
  return deepFreeze({ ...config, load: { ...config.load, maxConcurrency: load }, dataset: { ...config.dataset, numPrompts } });
}
