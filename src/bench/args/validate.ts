/**
 * bench_serving's start-up checks on parsed arguments (spec §1.3 steps 1, 6, 8, 11–13), as
 * one-line UserErrors (exit 1) instead of assertion tracebacks. Checks that need the network or
 * files (model discovery, --extra-request-body JSON) belong to the runner; the range of each number
 * is checked as it is parsed (options.ts).
 */
import { UserError } from '../../core/errors.js';
import { splitHeaderEntry } from '../../core/header-entry.js';
import type { BenchArgs } from './types.js';

/** The message bench_serving prints when `trt` runs without `--model` (kept verbatim). */
export const TRT_NEEDS_MODEL = 'Please provide a model using `--model` when using `trt` backend.';

/**
 * Checks the arguments and applies bench_serving's forced settings (`--apply-chat-template` for
 * the image and mmmu datasets). `--print-requests` is allowed with every backend (Q26), and
 * `gserver`, which crashes bench_serving, is refused up front (Q16).
 */
export function validateBenchArgs(args: BenchArgs): void {
  if (args.tokenize_prompt && args.backend !== 'sglang') {
    throw new UserError(`--tokenize-prompt only works with --backend sglang (got '${args.backend}'); drop the flag or switch backends`);
  }
  if (args.backend === 'gserver') {
    throw new UserError("--backend gserver is not implemented (bench_serving crashes on it); choose another backend");
  }
  if (args.backend === 'trt' && args.model === null) throw new UserError(TRT_NEEDS_MODEL);
  if (args.dataset_name === 'image' || args.dataset_name === 'mmmu') {
    args.apply_chat_template = true;
    if (args.tokenize_prompt) {
      throw new UserError(`--tokenize-prompt cannot be used with --dataset-name ${args.dataset_name}; drop the flag`);
    }
  }
  // bench_serving drops an entry with an empty key or value, but an entry with no separator at all
  // is a typo the user would never see (the header would silently not be sent).
  const malformed = (args.header ?? []).find((entry) => splitHeaderEntry(entry) === null);
  if (malformed !== undefined) {
    throw new UserError(`--header entry without ':' or '=' (${malformed.length} characters, not shown: it may hold a secret); write it as 'Key: Value' or Key=Value`);
  }
  const distribution = args.lora_request_distribution;
  if ((distribution === 'distinct' || distribution === 'skewed') && (args.lora_name ?? []).length < 2) {
    throw new UserError(`--lora-request-distribution ${distribution} needs at least two adapters; pass them with --lora-name A B ...`);
  }
}
