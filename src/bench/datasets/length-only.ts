/**
 * The `random` and `random-ids` workloads (and sharegpt without its file, see sharegpt-lengths.ts) as lengths alone, for predictions of a model whose
 * tokenizer is not at hand: the performance model reads prompt and output lengths only, and those
 * are the numpy draws bench makes, in bench's order, less the special tokens encode is taken to add.
 * The rows' prompts are empty. What bench draws besides lengths is left out, as no length depends
 * on it: the Python shuffle of the source texts (predictions draw nothing more from that stream)
 * and random-ids' id offsets (their count of numpy draws depends on the vocabulary size, so with
 * a finite request rate the arrival times that follow come from another point of the stream).
 */
import type { BenchRngs } from '../../core/rng.js';
import type { DatasetName } from '../../core/dataset-names.js';
import type { DatasetOptions } from '../run-config.js';
import type { Dataset } from '../types.js';
import { sampleLengths, sourceTexts } from './random.js';
import { printTokenTotals, rowsFromLengths } from './rows.js';
import { sampleShareGptLengths } from './sharegpt-lengths.js';

/** Datasets whose rows a prediction can build from lengths alone. */
export const LENGTH_ONLY_DATASETS: ReadonlySet<DatasetName> = new Set<DatasetName>(['random', 'random-ids']);

/**
 * How many rows `random` builds from a `--dataset-path` file: one per first turn that encodes to
 * at least one token, up to `count`. Taken as every non-empty text (byte-level vocabularies encode
 * every character), and empty ones too when encode adds a special token.
 */
function rowsFromFile(datasetPath: string, count: number, specialTokens: number): number {
  const usable = sourceTexts(datasetPath).texts.filter((text) => text !== '' || specialTokens > 0).length;
  return Math.min(count, usable);
}

/**
 * Rows of the dataset `options` name (one of {@link LENGTH_ONLY_DATASETS}, or sharegpt from its
 * bundled length model) with bench's lengths and empty prompts, drawn from `rngs` as bench draws
 * them; prints bench's `#Input tokens` / `#Output tokens`.
 */
export function buildLengthOnlyDataset(options: DatasetOptions, specialTokens: number, rngs: BenchRngs, print: (line: string) => void): Dataset {
  if (options.name === 'sharegpt') {
    // bench_serving's ShareGPT lengths count the special tokens encode adds, so none are subtracted.
    const { inputLens, outputLens } = sampleShareGptLengths(options, rngs.numpy);
    printTokenTotals(print, inputLens, outputLens);
    return { rows: rowsFromLengths(inputLens, outputLens), multiTurn: false };
  }
  const { inputLens, outputLens } = sampleLengths(options, rngs.numpy, specialTokens);
  const cyclic = options.name !== 'random' || options.path === '';
  const count = cyclic ? inputLens.length : rowsFromFile(options.path, inputLens.length, specialTokens);
  printTokenTotals(print, inputLens, outputLens);
  return { rows: rowsFromLengths(inputLens.slice(0, count), outputLens), multiTurn: false };
}
