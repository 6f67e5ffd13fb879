/**
 * The one step of model identification that may use the network, run once by each command before
 * anything resolves a model: a hub id's config.json (and a vision model's preprocessor_config.json)
 * fetched from the hub into the Hugging Face cache, where model-source.ts's synchronous resolution
 * (on any thread) then finds it. A no-op for a local path, a catalog name, `--sim-model`, a model
 * already cached, and under HF_HUB_OFFLINE.
 *
 * A hub that cannot help falls through to the bundled catalog with a note saying why; only when no
 * bundled model matches either is it fatal, with every step's failure in the one line.
 */
import { redactText } from '../../core/redact.js';
import { findModelByName } from './identify.js';
import { cachedFile, DEFAULT_REVISION, repoFolder, storeFile, storeRef } from './hub-cache.js';
import { downloadHubFile, type HubAnswer } from './hub-download.js';
import { hubAccess, hubCacheDir, hubOffline, type HubAccess, type HubEnv } from './hub-settings.js';
import { cacheMiss, type ModelRequest, namesHubRepo, noConfigError } from './model-source.js';

export interface FetchModelOptions {
  /** Where the cache is and how the hub is asked (HF_HUB_CACHE, HF_HOME, HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE, ...). */
  env?: HubEnv;
  /** Hears what was fetched, and why a hub id falls back to a bundled model. */
  notice: (line: string) => void;
}

/** A parsed JSON object, or null for bytes that are not one. */
function jsonObject(content: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(content.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The hub's failure to give `filename`, in words that name the fix; the token itself never appears. */
function hubFailure(access: HubAccess, answer: Exclude<HubAnswer, { kind: 'fetched' }>, revision: string, filename: string): string {
  const hub = `the hub at ${redactText(access.endpoint)}`;
  switch (answer.kind) {
    case 'unreachable':
      return `${hub} is unreachable (${answer.reason})`;
    case 'timed-out':
      return `${hub} did not answer within ${access.timeoutMs / 1000} s (HF_HUB_DOWNLOAD_TIMEOUT raises the bound)`;
    case 'unusable':
      return `${hub} ${answer.reason}`;
    case 'refused':
      return `${hub} answered ${answer.status}${refusalHint(answer, access.token !== null, revision, filename)}`;
  }
}

/** Why the hub refused, from its status and X-Error-Code. */
function refusalHint(answer: { status: number; code: string | null }, withToken: boolean, revision: string, filename: string): string {
  const { status, code } = answer;
  if (status === 401 && withToken) return ' (HF_TOKEN was not accepted: check it)';
  if (status === 401) return code === 'RepoNotFound' ? ' (no such repo, or a private one: set HF_TOKEN)' : ' (gated: set HF_TOKEN)';
  if (status === 403) return " (gated: accept the model's terms on its hub page with HF_TOKEN's account)";
  if (status === 404 && code === 'RevisionNotFound') return ` (no revision ${revision})`;
  if (status === 404 && code === 'EntryNotFound') return ` (the repo has no ${filename})`;
  if (status === 404) return ' (no such repo)';
  return '';
}

/** Fetches a vision model's preprocessor_config.json at the commit its config.json came from; a repo without one is fine. */
async function fetchPreprocessor(access: HubAccess, folder: string, repoId: string, commit: string, notice: (line: string) => void): Promise<void> {
  const filename = 'preprocessor_config.json';
  const answer = await downloadHubFile(access, repoId, commit, filename);
  if (answer.kind === 'fetched' && jsonObject(answer.file.content) !== null) {
    storeFile(folder, answer.file);
    return;
  }
  if (answer.kind === 'refused' && answer.status === 404) return;
  const failure = answer.kind === 'fetched' ? `the hub at ${redactText(access.endpoint)} sent a ${filename} that is not a JSON object` : hubFailure(access, answer, commit, filename);
  notice(`no ${filename} for ${repoId}: ${failure}; its vision tower takes the default pixel budget`);
}

/** Puts `request`'s config.json in the HF cache when it names a hub repo that is not cached yet. */
async function fetchModelConfig(request: ModelRequest, env: HubEnv, notice: (line: string) => void): Promise<void> {
  const { modelPath: repoId } = request;
  if (request.simModel !== null || !namesHubRepo(repoId)) return;
  const revision = request.revision ?? DEFAULT_REVISION;
  const cacheDir = hubCacheDir(env);
  const folder = repoFolder(cacheDir, repoId);
  // Offline, resolution says what the cache lacks.
  if (cachedFile(folder, revision, 'config.json') !== null || hubOffline(env)) return;
  const access = hubAccess(env);
  const answer = await downloadHubFile(access, repoId, revision, 'config.json');
  const config = answer.kind === 'fetched' ? jsonObject(answer.file.content) : null;
  if (answer.kind === 'fetched' && config !== null) {
    const { commit } = answer.file;
    storeFile(folder, answer.file);
    if ('vision_config' in config) await fetchPreprocessor(access, folder, repoId, commit, notice);
    // The ref last: a reader that finds it finds the snapshot complete.
    storeRef(folder, revision, commit);
    notice(`config.json of ${repoId} (${revision}, commit ${commit.slice(0, 12)}) fetched from ${redactText(access.endpoint)} into ${folder}`);
    return;
  }
  const failure =
    answer.kind === 'fetched' ? `the hub at ${redactText(access.endpoint)} sent a config.json that is not a JSON object` : hubFailure(access, answer, revision, 'config.json');
  const failures = [cacheMiss(cacheDir, revision), failure];
  const bundled = findModelByName(repoId);
  if (bundled === null) throw noConfigError(repoId, failures);
  notice(`no config.json for ${repoId}: ${failures.join(', ')}; simulating the bundled ${bundled.name}`);
}

/**
 * Fetches into the HF cache the config.json of every hub repo the requests name (each once), so
 * that resolving them later reads it from there. Throws a UserError for a hub id that neither the
 * cache, the hub nor the bundled catalog knows.
 */
export async function fetchModelConfigs(requests: readonly ModelRequest[], options: FetchModelOptions): Promise<void> {
  const env = options.env ?? process.env;
  const seen = new Set<string>();
  for (const request of requests) {
    const key = JSON.stringify([request.modelPath, request.revision, request.simModel]);
    if (seen.has(key)) continue;
    seen.add(key);
    await fetchModelConfig(request, env, options.notice);
  }
}
