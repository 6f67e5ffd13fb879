/**
 * Model discovery (spec §1.3 step 9): without `--model`, the first id of `GET <prefix>/v1/models`.
 * Failures end the run with the reference's own lines.
 */
import { redactText } from '../../core/redact.js';
import { getJson } from '../transport/auxiliary.js';
import type { HttpPool } from '../transport/http-pool.js';

export type ModelDiscovery = { ok: true; model: string } | { ok: false; lines: string[] };

const TRUSS_NEEDS_MODEL =
  'Please provide a model with `--model` when using truss backend. e.g. --model meta-llama/Llama-3.1-8B-Instruct';
const NO_MODEL = 'No model specified or found. Please provide a model using `--model`.';

function firstModelId(body: unknown): string | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new Error(`unexpected /v1/models body: ${JSON.stringify(body)?.slice(0, 200)}`);
  const id = (data[0] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

/** The served model's id, or the lines to print before exiting 1. */
export async function discoverModel(
  pool: HttpPool,
  backend: string,
  modelUrl: string,
  headers: Record<string, string>,
): Promise<ModelDiscovery> {
  if (backend === 'truss') return { ok: false, lines: [TRUSS_NEEDS_MODEL] };
  let model: string | null;
  try {
    const { status, body } = await getJson(pool, modelUrl, headers);
    if (status !== 200) throw new Error(`HTTP ${status}: ${JSON.stringify(body)?.slice(0, 200)}`);
    model = firstModelId(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      lines: [
        `Failed to fetch model from ${redactText(modelUrl)}. Error: ${reason}`,
        'Please specify the correct host and port using `--host` and `--port`.',
      ],
    };
  }
  return model === null ? { ok: false, lines: [NO_MODEL] } : { ok: true, model };
}
