/**
 * Datasets of a sweep's points, built once. Points differ only in their load, and with an
 * infinite request rate nothing is drawn after the dataset (arrivals are all at once), so a
 * dataset built for one point is exactly the one the next point would build. With a finite rate
 * the Poisson draws continue the dataset's numpy stream, so such points rebuild it to keep the
 * stream identical to `servebench bench`.
 */
import type { BenchRunConfig, Dataset } from '../bench/index.js';
import { createBenchRngs, type BenchRngs } from '../core/rng.js';

/** Builds the dataset of a run of `config`, drawing from `rngs` as `servebench bench` does. */
export type BuildWorkloadDataset = (config: BenchRunConfig, rngs: BenchRngs) => Promise<Dataset>;

export interface Workload {
  dataset: Dataset;
  rngs: BenchRngs;
}

/** Everything but the load decides the dataset. */
function datasetKey(config: BenchRunConfig): string {
  return JSON.stringify({ ...config, load: { ...config.load, maxConcurrency: null, requestRate: null } });
}

export class WorkloadCache {
  private readonly datasets = new Map<string, Dataset>();

  constructor(private readonly build: BuildWorkloadDataset) {}

  /** The dataset and RNG streams of a run of `config`, as `servebench bench` would have them after building. */
  async workload(config: BenchRunConfig): Promise<Workload> {
    const rngs = createBenchRngs(config.seed);
    const key = datasetKey(config);
    const cached = this.datasets.get(key);
    if (cached !== undefined && config.load.requestRate === Number.POSITIVE_INFINITY) return { dataset: cached, rngs };
    const dataset = await this.build(config, rngs);
    this.datasets.set(key, dataset);
    return { dataset, rngs };
  }
}
