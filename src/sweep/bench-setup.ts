/**
 * The bench half of a `predict` / `sweep` command line (the flags after `--`): parsed exactly as
 * `servebench bench` parses them, with the model taken from the launch flags when the bench flags
 * name none (there is no server to ask), and what the dataset builder needs: the tokenizer, or for
 * a prediction whose model has none at hand, the lengths alone when the dataset needs no more.
 */
import { UsageError } from '../core/errors.js';
import { HelpRequested, parseBenchArgs } from '../bench/args/parse.js';
import type { BenchArgs } from '../bench/args/types.js';
import { validateBenchArgs } from '../bench/args/validate.js';
import { buildDataset, buildLengthOnlyDataset, LENGTH_ONLY_DATASETS } from '../bench/datasets/index.js';
import { loadTokenizer, locateTokenizer, specialTokensOfLocalConfig } from '../tokenizer/index.js';
import type { Tokenizer, TokenizerSpec } from '../tokenizer/types.js';
import { WorkloadCache } from './workload-cache.js';

/** Parses and validates bench flags; `--help` among them is pointed at `servebench bench --help`. */
export function parseWorkloadArgs(argv: readonly string[], command: string, defaultModel: string | null): BenchArgs {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof HelpRequested) throw new UsageError(`${command}: the flags after '--' are bench flags; see 'servebench bench --help'`);
    throw error;
  }
  if (args.model === null && defaultModel !== null) args.model = defaultModel;
  validateBenchArgs(args);
  return args;
}

function tokenizerSpec(args: BenchArgs): TokenizerSpec {
  return { tokenizer: args.tokenizer, model: args.model };
}

/** The tokenizer `servebench bench` would build the dataset with. */
export function workloadTokenizer(args: BenchArgs): Promise<Tokenizer> {
  return loadTokenizer(tokenizerSpec(args));
}

/** A prediction's workload built from sampled lengths alone, and what that assumes. */
export interface LengthOnlyWorkload {
  /** Special tokens taken to be added to each prompt (bench subtracts them from the input lengths). */
  specialTokens: number;
  /** The one line saying the workload was built from lengths, what was assumed, and how to give a tokenizer. */
  note: string;
}

function lengthOnlyNote(args: BenchArgs, specialTokens: number, configPath: string | null): string {
  const count = `${specialTokens} special token${specialTokens === 1 ? '' : 's'} per prompt`;
  const assumed = configPath === null ? `assuming its tokenizer adds ${count}` : `taking ${count} from ${configPath}`;
  // The id draws sit between the lengths and the Poisson intervals in bench's numpy stream.
  const arrivals =
    args.dataset_name === 'random-ids' ? '; arrivals at a finite --request-rate are drawn without the id draws before them, whose count depends on the vocabulary' : '';
  return (
    `note: no tokenizer for ${args.model ?? ''} was found, so the ${args.dataset_name} workload was built from its sampled lengths alone, ` +
    `${assumed}${arrivals}; pass --tokenizer PATH (a local HF folder or tokenizer.json) to build it from text`
  );
}

/**
 * How a prediction builds its workload when no tokenizer for the model is found and the dataset
 * needs lengths only (the performance model reads nothing else): with the special tokens the
 * model's local tokenizer_config.json asks for, else none. Null when the tokenizer is found, or
 * when the dataset needs text (loading the tokenizer then says what to pass). Looks at files only.
 */
export function lengthOnlyWorkload(args: BenchArgs): LengthOnlyWorkload | null {
  if (!LENGTH_ONLY_DATASETS.has(args.dataset_name) || locateTokenizer(tokenizerSpec(args)) !== null) return null;
  const config = args.model === null ? null : specialTokensOfLocalConfig(args.model);
  const specialTokens = config?.count ?? 0;
  return { specialTokens, note: lengthOnlyNote(args, specialTokens, config?.path ?? null) };
}

/**
 * The datasets a prediction runs on, as `servebench bench` would build them: with bench's
 * tokenizer, or from the lengths alone when `lengthOnly` (from {@link lengthOnlyWorkload}) says so.
 * `print` receives the lines bench prints while building.
 */
export async function predictionWorkloads(args: BenchArgs, lengthOnly: LengthOnlyWorkload | null, print: (line: string) => void): Promise<WorkloadCache> {
  if (lengthOnly !== null) {
    return new WorkloadCache(async (pointArgs, rngs) => buildLengthOnlyDataset(pointArgs, lengthOnly.specialTokens, rngs, print));
  }
  const tokenizer = await workloadTokenizer(args);
  return new WorkloadCache((pointArgs, rngs) => buildDataset(pointArgs, tokenizer, print, { rngs }));
}
