/**
 * The bench half of a `predict` / `sweep` command line (the flags after `--`, parsed by the CLI as
 * `servebench bench` parses them): resolved with the model taken from the launch flags when the
 * bench flags name none (there is no server to ask), and what the dataset builder needs: the
 * tokenizer, or for a prediction whose model has none at hand, the lengths alone when the dataset
 * needs no more.
 */
import { buildDataset, buildLengthOnlyDataset, LENGTH_ONLY_DATASETS, type BenchRunConfig } from '../bench/index.js';
import { loadTokenizer, locateTokenizer, specialTokensOfLocalConfig, type TokenizerSpec } from '../tokenizer/index.js';
import { WorkloadCache } from './workload-cache.js';

function tokenizerSpec(config: BenchRunConfig): TokenizerSpec {
  return { tokenizer: config.tokenizer, model: config.model };
}

/** A prediction's workload built from sampled lengths alone, and what that assumes. */
export interface LengthOnlyWorkload {
  /** Special tokens taken to be added to each prompt (bench subtracts them from the input lengths). */
  specialTokens: number;
  /** The one line saying the workload was built from lengths, what was assumed, and how to give a tokenizer. */
  note: string;
}

function lengthOnlyNote(config: BenchRunConfig, specialTokens: number, configPath: string | null): string {
  const count = `${specialTokens} special token${specialTokens === 1 ? '' : 's'} per prompt`;
  const assumed = configPath === null ? `assuming its tokenizer adds ${count}` : `taking ${count} from ${configPath}`;
  // The id draws sit between the lengths and the Poisson intervals in bench's numpy stream.
  const arrivals =
    config.dataset.name === 'random-ids' ? '; arrivals at a finite --request-rate are drawn without the id draws before them, whose count depends on the vocabulary' : '';
  return (
    `note: no tokenizer for ${config.model ?? ''} was found, so the ${config.dataset.name} workload was built from its sampled lengths alone, ` +
    `${assumed}${arrivals}; pass --tokenizer PATH (a local HF folder or tokenizer.json) to build it from text`
  );
}

function shareGptLengthModelNote(config: BenchRunConfig): string {
  const { applyChatTemplate, promptSuffix } = config.dataset;
  const uncounted = applyChatTemplate || promptSuffix ? '; the tokens --apply-chat-template and --prompt-suffix add are not counted' : '';
  return (
    "note: without --dataset-path the sharegpt workload's lengths come from servebench's bundled ShareGPT length model " +
    `(ShareGPT_V3_unfiltered_cleaned_split as bench_serving samples it), not the file${uncounted}; ` +
    'pass --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json to sample its conversations'
  );
}

/**
 * How a prediction builds its workload when no tokenizer for the model is found and the dataset
 * needs lengths only (the performance model reads nothing else): with the special tokens the
 * model's local tokenizer_config.json asks for, else none. Null when the tokenizer is found, or
 * when the dataset needs text (loading the tokenizer then says what to pass). A sharegpt workload
 * without its file always takes the bundled length model (no text to tokenize). Looks at files only.
 */
export function lengthOnlyWorkload(config: BenchRunConfig): LengthOnlyWorkload | null {
  if (config.dataset.name === 'sharegpt' && config.dataset.path === '') return { specialTokens: 0, note: shareGptLengthModelNote(config) };
  if (!LENGTH_ONLY_DATASETS.has(config.dataset.name) || locateTokenizer(tokenizerSpec(config)) !== null) return null;
  const local = config.model === null ? null : specialTokensOfLocalConfig(config.model);
  const specialTokens = local?.count ?? 0;
  return { specialTokens, note: lengthOnlyNote(config, specialTokens, local?.path ?? null) };
}

/**
 * The datasets a prediction runs on, as `servebench bench` would build them: with bench's
 * tokenizer, or from the lengths alone when `lengthOnly` (from {@link lengthOnlyWorkload}) says so.
 * `print` receives the lines bench prints while building.
 */
export async function predictionWorkloads(config: BenchRunConfig, lengthOnly: LengthOnlyWorkload | null, print: (line: string) => void): Promise<WorkloadCache> {
  if (lengthOnly !== null) {
    return new WorkloadCache(async (point, rngs) => buildLengthOnlyDataset(point.dataset, lengthOnly.specialTokens, rngs, print));
  }
  const tokenizer = await loadTokenizer(tokenizerSpec(config));
  return new WorkloadCache((point, rngs) => buildDataset(point, tokenizer, print, { rngs, forPrediction: true }));
}
