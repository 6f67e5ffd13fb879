/**
 * bench_serving's start-up checks (spec §1.3 steps 1, 6, 8, 11–13), on the run config as it is
 * resolved, as one-line UserErrors (exit 1) instead of assertion tracebacks. Checks that need the
 * network or files (model discovery) belong to the run; the range of each number is checked as it
 * is parsed (cli/bench-args/options.ts).
 */
import { UserError } from '../../core/errors.js';
import { splitHeaderEntry } from '../../core/header-entry.js';
import type { BenchRunConfig } from '../run-config.js';

/** The message bench_serving prints when `trt` runs without `--model` (kept verbatim). */
export const TRT_NEEDS_MODEL = 'Please provide a model using `--model` when using `trt` backend.';

/**
 * Throws on the first setting bench_serving refuses. `--print-requests` is allowed with every
 * backend (Q26), and `gserver`, which crashes bench_serving, is refused up front (Q16).
 */
export function validateRunConfig(config: BenchRunConfig): void {
  const { backend, dataset } = config;
  if (dataset.tokenizePrompt && backend !== 'sglang') {
    throw new UserError(`--tokenize-prompt only works with --backend sglang (got '${backend}'); drop the flag or switch backends`);
  }
  if (backend === 'gserver') {
    throw new UserError("--backend gserver is not implemented (bench_serving crashes on it); choose another backend");
  }
  if (backend === 'trt' && config.model === null) throw new UserError(TRT_NEEDS_MODEL);
  if ((dataset.name === 'image' || dataset.name === 'mmmu') && dataset.tokenizePrompt) {
    throw new UserError(`--tokenize-prompt cannot be used with --dataset-name ${dataset.name}; drop the flag`);
  }
  // bench_serving drops an entry with an empty key or value, but an entry with no separator at all
  // is a typo the user would never see (the header would silently not be sent).
  const malformed = (config.request.headers ?? []).find((entry) => splitHeaderEntry(entry) === null);
  if (malformed !== undefined) {
    throw new UserError(`--header entry without ':' or '=' (${malformed.length} characters, not shown: it may hold a secret); write it as 'Key: Value' or Key=Value`);
  }
  const { names, distribution } = config.request.lora;
  if ((distribution === 'distinct' || distribution === 'skewed') && (names ?? []).length < 2) {
    throw new UserError(`--lora-request-distribution ${distribution} needs at least two adapters; pass them with --lora-name A B ...`);
  }
}
