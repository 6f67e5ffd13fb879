/**
 * The bundled model catalog: the models' own config.json files, one per entry in models/<key>.json
 * at the package root, read by the same parser as a local model folder (hf-config.ts). A file holds
 * the repo's config.json trimmed to the fields the parser reads, its preprocessor_config.json where a
 * vision model has one, the names the entry answers to and where the facts come from. The folder
 * sits at the same depth from src/ and dist/, so one path serves both; it is read once, on first use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelSpec } from './catalog.js';
import { modelSpecFromHfConfig } from './hf-config.js';

const BUNDLED_DIR = fileURLToPath(new URL('../../../models/', import.meta.url));

/** One bundled file (see the folder's README.md). */
interface BundledFile {
  repo: string;
  name: string;
  aliases: string[];
  publishedParamsB?: number;
  eagle3Draft?: boolean;
  source: string;
  config: unknown;
  preprocessor?: unknown;
}

function readBundled(dir: string, fileName: string): ModelSpec {
  const path = join(dir, fileName);
  const file = JSON.parse(readFileSync(path, 'utf8')) as BundledFile;
  const key = fileName.replace(/\.json$/, '');
  const preprocessor = file.preprocessor === undefined ? undefined : { config: file.preprocessor, file: `${path} (preprocessor)` };
  const parsed = modelSpecFromHfConfig(file.config, file.name, path, preprocessor);
  return {
    ...parsed,
    key,
    aliases: file.aliases.map((alias) => alias.toLowerCase()),
    ...(file.publishedParamsB === undefined ? {} : { publishedParamsB: file.publishedParamsB }),
    ...(file.eagle3Draft === undefined ? {} : { eagle3Draft: file.eagle3Draft }),
    source: `${file.source} (${file.repo})`,
  };
}

/** Every bundled file of `dir` parsed, by key, in file-name order; an alias naming two entries is a packaging bug. */
export function loadBundledModels(dir: string = BUNDLED_DIR): Map<string, ModelSpec> {
  const models = new Map<string, ModelSpec>();
  const owner = new Map<string, string>();
  for (const fileName of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
    const model = readBundled(dir, fileName);
    for (const alias of model.aliases) {
      const other = owner.get(alias);
      if (other !== undefined) throw new Error(`bundled models ${other} and ${model.key} both claim the alias '${alias}'`);
      owner.set(alias, model.key);
    }
    models.set(model.key, model);
  }
  return models;
}

let bundled: Map<string, ModelSpec> | null = null;

function catalog(): Map<string, ModelSpec> {
  bundled ??= loadBundledModels();
  return bundled;
}

/** Keys of the bundled models. */
export function modelNames(): string[] {
  return [...catalog().keys()];
}

/** The bundled model stored under `key`, or undefined. */
export function getModel(key: string): ModelSpec | undefined {
  return catalog().get(key);
}

/** Every bundled model (for alias matching). */
export function allModels(): ModelSpec[] {
  return [...catalog().values()];
}
