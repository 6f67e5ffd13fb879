/**
 * Builds the dataset a bench run replays (spec §3), dispatching on `--dataset-name`.
 */
import { UserError } from '../../core/errors.js';
import { createBenchRngs, type BenchRngs } from '../../core/rng.js';
import type { Tokenizer } from '../../tokenizer/index.js';
import type { DatasetName } from '../../core/dataset-names.js';
import type { BenchRunConfig } from '../run-config.js';
import type { Dataset } from '../types.js';
import type { DatasetContext } from './context.js';
import { buildCustomDataset, buildShareGptDataset } from './conversations.js';
import { buildGeneratedSharedPrefixDataset } from './generated-shared-prefix.js';
import { buildImageDataset } from './image.js';
import { buildMooncakeDataset } from './mooncake.js';
import { buildOpenAiDataset } from './openai.js';
import { buildRandomDataset, buildRandomIdsDataset } from './random.js';

export { buildLengthOnlyDataset, LENGTH_ONLY_DATASETS } from './length-only.js';
export { mooncakeReplayLines } from './mooncake.js';

export interface BuildDatasetOptions {
  /**
   * The run's RNG pair. Pass the one the runner keeps drawing from (Poisson intervals, LoRA
   * picks) so the streams continue as in bench_serving; defaults to a fresh `createBenchRngs(config.seed)`.
   */
  rngs?: BenchRngs;
  /** Rows for a prediction: see {@link DatasetContext.forPrediction}. */
  forPrediction?: boolean;
}

async function buildMmmuDataset(): Promise<Dataset> {
  throw new UserError(
    'the mmmu dataset is downloaded from the Hugging Face Hub (MMMU/MMMU), which is not reachable offline: use --dataset-name image for synthetic image requests',
  );
}

const BUILDERS: Record<DatasetName, (ctx: DatasetContext) => Promise<Dataset>> = {
  sharegpt: buildShareGptDataset,
  custom: buildCustomDataset,
  openai: buildOpenAiDataset,
  random: buildRandomDataset,
  'random-ids': buildRandomIdsDataset,
  'generated-shared-prefix': buildGeneratedSharedPrefixDataset,
  mmmu: buildMmmuDataset,
  image: buildImageDataset,
  mooncake: buildMooncakeDataset,
};

/**
 * Builds the rows of `config.dataset`, drawing from `options.rngs` in bench_serving's order.
 * `print` receives the console lines bench_serving prints while building (e.g. `#Input tokens: N`).
 * Throws UsageError/UserError with one line for bad options or files.
 */
export function buildDataset(
  config: Pick<BenchRunConfig, 'backend' | 'seed' | 'dataset'>,
  tokenizer: Tokenizer,
  print: (line: string) => void,
  options: BuildDatasetOptions = {},
): Promise<Dataset> {
  const rngs = options.rngs ?? createBenchRngs(config.seed);
  return BUILDERS[config.dataset.name]({ options: config.dataset, backend: config.backend, tokenizer, rngs, print, forPrediction: options.forPrediction ?? false });
}
