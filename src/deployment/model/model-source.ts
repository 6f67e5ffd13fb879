/**
 * Which architecture a launch simulates, found as SGLang finds a model's config.json: `--sim-model`
 * names a catalog entry; else a `--model-path` that is a local directory gives its config.json; else
 * an `org/name` hub id gives the config.json its `--revision` (default main) has in the Hugging Face
 * cache (fetch-model-config.ts puts it there first); else the name is matched against the bundled
 * catalog. This module does the file reads, synchronously and never over the network; the mapping
 * itself is hf-config.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { modelNames } from './bundled-models.js';
import type { ModelSpec, QuantName } from './catalog.js';
import { cachedFile, DEFAULT_REVISION, isHubId, repoFolder } from './hub-cache.js';
import { hubCacheDir, hubOffline, type HubEnv } from './hub-settings.js';
import { modelSpecFromHfConfig } from './hf-config.js';
import { findModelByName, identifyModel } from './identify.js';
import { quantFromName } from './quantization.js';

/** What names a launch's model: the launch flags `--model-path`, `--revision` and `--sim-model` (a LaunchConfig is one). */
export interface ModelRequest {
  modelPath: string;
  /** A branch, tag or commit of a hub id; null: main. */
  revision: string | null;
  simModel: string | null;
}

export interface ModelSource {
  model: ModelSpec;
  /** The weight format the checkpoint announces (its config's quantization_config, else its name), or null. */
  announcedQuant: QuantName | null;
}

/**
 * The config.json of a local model directory: the directory itself (a plain download or an HF cache
 * snapshot), or the snapshot of `revision` in an HF cache model directory. Null when there is none.
 */
export function localConfigPath(modelPath: string, revision: string = DEFAULT_REVISION): string | null {
  const direct = join(modelPath, 'config.json');
  if (existsSync(direct)) return direct;
  return cachedFile(modelPath, revision, 'config.json');
}

/** True when `--model-path` names a hub repo: an `org/name` id of which no local path exists (a local folder wins, as in SGLang). */
export function namesHubRepo(modelPath: string): boolean {
  return isHubId(modelPath) && !existsSync(modelPath);
}

/** The config.json of a request: a hub id's in the HF cache, or a local directory's; null when there is none. */
function configPath(request: ModelRequest, cacheDir: string): string | null {
  const revision = request.revision ?? DEFAULT_REVISION;
  if (namesHubRepo(request.modelPath)) return cachedFile(repoFolder(cacheDir, request.modelPath), revision, 'config.json');
  return localConfigPath(request.modelPath, revision);
}

/** The cache step of the failure line of a hub id: which revision was looked for where. */
export function cacheMiss(cacheDir: string, revision: string): string {
  return `${revision === DEFAULT_REVISION ? 'not' : `revision ${revision} not`} in the HF cache at ${cacheDir}`;
}

/** A hub id whose config.json no step found, each step's failure named, and the fixes. */
export function noConfigError(repoId: string, failures: readonly string[]): UserError {
  return new UserError(
    `no config.json for ${repoId}: ${failures.join(', ')}, and no bundled model matches; ` +
      `pass --sim-model with one of ${modelNames().join(', ')}, or a local --model-path`,
  );
}

/** The bundled model a hub id names, or the error that says what each step found. */
function bundledModel(request: ModelRequest, cacheDir: string, env: HubEnv): ModelSpec {
  const found = findModelByName(request.modelPath);
  if (found !== null) return found;
  const missing = cacheMiss(cacheDir, request.revision ?? DEFAULT_REVISION);
  throw noConfigError(request.modelPath, hubOffline(env) ? [missing, 'HF_HUB_OFFLINE=1 kept the hub from being asked'] : [missing]);
}

/** The model's name in a local path: `Name` of an HF cache `models--org--Name/snapshots/<sha>`, else the last component. */
export function localModelName(modelPath: string): string {
  const cached = /models--[^/\\]+?--([^/\\]+)/.exec(modelPath);
  return cached?.[1] ?? basename(modelPath.replace(/[/\\]+$/, ''));
}

/**
 * A model read from its own config.json, known by the bundled entry its name names where there is one:
 * the architecture is the file's, the identity (key, names, EAGLE3 draft) the entry's, so what is
 * learnt per entry (speculative acceptance) still applies to a checkpoint found in the HF cache.
 */
function withBundledIdentity(model: ModelSpec, modelPath: string): ModelSpec {
  const named = findModelByName(modelPath);
  if (named === null) return model;
  const { key, name, aliases, eagle3Draft, publishedParamsB } = named;
  return { ...model, key, name, aliases, ...(eagle3Draft === undefined ? {} : { eagle3Draft }), ...(publishedParamsB === undefined ? {} : { publishedParamsB }) };
}

function readConfig(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UserError(`${file}: cannot read it as JSON (${(error as Error).message.split('\n')[0]}); pass a Hugging Face config.json, or --sim-model NAME`);
  }
}

/**
 * The architecture and announced weight format of a launch's model. `env` says where the HF cache
 * is (HF_HUB_CACHE, HF_HOME, ...) and whether the hub may be asked; it is read, never the network.
 */
export function resolveModel(request: ModelRequest, env: HubEnv = process.env): ModelSource {
  const { modelPath, simModel } = request;
  const cacheDir = hubCacheDir(env);
  const config = simModel === null ? configPath(request, cacheDir) : null;
  if (config === null) {
    const model = simModel === null && namesHubRepo(modelPath) ? bundledModel(request, cacheDir, env) : identifyModel(modelPath, simModel);
    return { model, announcedQuant: quantFromName(modelPath) };
  }
  const preprocessorPath = join(dirname(config), 'preprocessor_config.json');
  const preprocessor = existsSync(preprocessorPath) ? { config: readConfig(preprocessorPath), file: preprocessorPath } : undefined;
  const model = withBundledIdentity(modelSpecFromHfConfig(readConfig(config), localModelName(modelPath), config, preprocessor), modelPath);
  // A 16-bit checkpoint's config says nothing about its format; its name may (an Ascend `-W8A8` directory).
  return { model, announcedQuant: model.nativeQuant === 'bf16' ? quantFromName(modelPath) : model.nativeQuant };
}
