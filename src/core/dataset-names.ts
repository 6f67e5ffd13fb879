/**
 * The workloads bench_serving's `--dataset-name` accepts: bench builds them, and the sim's
 * `--sim-dataset` names the one its requests come from.
 */
export const DATASET_CHOICES = [
  'sharegpt',
  'custom',
  'openai',
  'random',
  'random-ids',
  'generated-shared-prefix',
  'mmmu',
  'image',
  'mooncake',
] as const;

export type DatasetName = (typeof DATASET_CHOICES)[number];
