/**
 * Model discovery (spec §1.3 step 9): without `--model`, the first id of `GET <prefix>/v1/models`.
 * Failures end the run with the reference's own lines.
 */
import { UserError } from '../../core/errors.js';
import { redactText } from '../../core/redact.js';
import { getJson } from '../transport/auxiliary.js';
import type { HttpPool } from '../transport/http-pool.js';

/** No model was found; `servebench bench` prints the reference's `lines` and exits 1, other callers show them as one line. */
export class ModelDiscoveryError extends UserError {
  override readonly code = 'E_MODEL_DISCOVERY';
  constructor(readonly lines: readonly string[]) {
    super(lines.join(' '));
  }
}

const TRUSS_NEEDS_MODEL =
  'Please provide a model with `--model` when using truss backend. e.g. --model meta-llama/Llama-3.1-8B-Instruct';
const NO_MODEL = 'No model specified or found. Please provide a model using `--model`.';

function firstModelId(body: unknown): string | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new Error(`unexpected /v1/models body: ${JSON.stringify(body)?.slice(0, 200)}`);
  const id = (data[0] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

/** The served model's id; throws ModelDiscoveryError. */
export async function discoverModel(pool: HttpPool, backend: string, modelUrl: string, headers: Record<string, string>): Promise<string> {
  if (backend === 'truss') throw new ModelDiscoveryError([TRUSS_NEEDS_MODEL]);
  let model: string | null;
  try {
    const { status, body } = await getJson(pool, modelUrl, headers);
    if (status !== 200) throw new Error(`HTTP ${status}: ${JSON.stringify(body)?.slice(0, 200)}`);
    model = firstModelId(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelDiscoveryError([
      `Failed to fetch model from ${redactText(modelUrl)}. Error: ${reason}`,
      'Please specify the correct host and port using `--host` and `--port`.',
    ]);
  }
  if (model === null) throw new ModelDiscoveryError([NO_MODEL]);
  return model;
}
