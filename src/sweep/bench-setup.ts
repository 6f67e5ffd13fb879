/**
 * The bench half of a `predict` / `sweep` command line (the flags after `--`): parsed exactly as
 * `servebench bench` parses them, with the model taken from the launch flags when the bench flags
 * name none (there is no server to ask), and the tokenizer the dataset builder needs.
 */
import { UsageError } from '../core/errors.js';
import { HelpRequested, parseBenchArgs } from '../bench/args/parse.js';
import type { BenchArgs } from '../bench/args/types.js';
import { validateBenchArgs } from '../bench/args/validate.js';
import { loadTokenizer } from '../tokenizer/index.js';
import type { Tokenizer } from '../tokenizer/types.js';

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

/** The tokenizer `servebench bench` would build the dataset with. */
export function workloadTokenizer(args: BenchArgs): Promise<Tokenizer> {
  return loadTokenizer({ tokenizer: args.tokenizer, model: args.model });
}
