/**
 * The server a live bench run talks to: its address (the command line's, or the loopback address
 * of the sim the run started) with the port and URLs resolved (spec §1.4), and the model it serves:
 * `--model`, else the first one the server lists (spec §1.3 step 9).
 */
import { deepFreeze } from '../core/deep-freeze.js';
import { UsageError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import { resolvePort, resolveUrls, type BenchUrls, type ServerAddress } from './args/urls.js';
import type { BenchRunConfig } from './run-config.js';
import { discoverModel } from './runner/discovery.js';
import type { HttpPool } from './transport/http-pool.js';

export interface BenchTarget {
  /** The address with its port resolved, as the resolved Namespace shows it. */
  readonly baseUrl: string | null;
  readonly host: string;
  readonly port: number;
  readonly urls: BenchUrls;
  readonly model: string;
  /** `--served-model-name` or the model: the `model` field of payloads. */
  readonly modelId: string;
}

/** Where a started sim listens. */
export function simAddress(port: number): ServerAddress {
  return { baseUrl: null, host: '127.0.0.1', port };
}

function isHttpUrl(text: string): boolean {
  return URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol);
}

/**
 * Resolves the target at `address` (the config's server, or `simAddress`); asks the server for
 * its model when the config names none, with the `auth` headers. Throws UsageError for an address
 * requests cannot go to, ModelDiscoveryError when no model is found.
 */
export async function resolveTarget(
  config: Pick<BenchRunConfig, 'backend' | 'model' | 'servedModelName'>,
  address: ServerAddress,
  pool: HttpPool,
  auth: Record<string, string>,
): Promise<BenchTarget> {
  const port = resolvePort({ backend: config.backend, port: address.port });
  const urls = resolveUrls({ backend: config.backend, ...address, port });
  if (!isHttpUrl(urls.apiUrl)) {
    throw new UsageError(`cannot send requests to '${redactText(urls.apiUrl)}': pass --base-url as a full URL like http://127.0.0.1:30000`);
  }
  const model = config.model ?? (await discoverModel(pool, config.backend, urls.modelUrl, auth));
  return deepFreeze({ baseUrl: address.baseUrl, host: address.host, port, urls, model, modelId: config.servedModelName ?? model });
}
