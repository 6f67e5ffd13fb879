/**
 * Finds and loads the tokenizer for a run, as bench_serving's `get_tokenizer(--tokenizer or --model)`
 * but offline: a local HF folder or tokenizer.json, else a bundled vocabulary picked by model name.
 * Loaded tokenizers are cached per file for the life of the process.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { isObject } from '../core/json-object.js';
import { BUNDLED_LONGEST_TOKEN_BYTES, bundledTokenizerDir, listBundledTokenizers, resolveTokenizerFamily, type TokenizerFamily } from './bundled.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import { readTokenizerConfig, specialTokenCount } from './tokenizer-config.js';
import type { Tokenizer, TokenizerSpec } from './types.js';

const cache = new Map<string, Promise<Tokenizer>>();

function readJsonObject(path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UserError(`cannot read ${path}: ${(error as Error).message.split('\n')[0]}; pass a valid HF tokenizer file`);
  }
  if (!isObject(parsed)) throw new UserError(`${path} is not a JSON object; pass a valid HF tokenizer file`);
  return parsed;
}

function readOptional(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** Loads tokenizer.json plus the tokenizer_config.json (and chat_template.jinja) beside it, cached. */
function loadFromFile({ name, file: tokenizerJsonPath, longestTokenBytes }: TokenizerLocation): Promise<Tokenizer> {
  const key = resolve(tokenizerJsonPath);
  let pending = cache.get(key);
  if (pending === undefined) {
    const folder = dirname(key);
    const configPath = join(folder, 'tokenizer_config.json');
    const config = existsSync(configPath) ? readJsonObject(configPath) : {};
    const info = readTokenizerConfig(config, readOptional(join(folder, 'chat_template.jinja')));
    pending = createHfTokenizer(name, key, info, longestTokenBytes ?? null).catch((error: unknown) => {
      cache.delete(key);
      if (error instanceof UserError) throw error;
      throw new UserError(`cannot load tokenizer ${key}: ${(error as Error).message.split('\n')[0]}; pass a valid HF tokenizer.json`);
    });
    cache.set(key, pending);
  }
  return pending;
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** tokenizer.json of a local path (folder or file), or null when `path` does not exist. */
function localTokenizerJson(path: string): string | null {
  if (!existsSync(path)) return null;
  if (isFolder(path)) {
    const file = join(path, 'tokenizer.json');
    return existsSync(file) ? file : null;
  }
  return path;
}

/** The bundled families as error messages list them. */
function bundledList(): string {
  return `bundled: ${listBundledTokenizers().map((b) => b.label).join(', ')}`;
}

/** A tokenizer.json to load and the name the loaded tokenizer carries. */
export interface TokenizerLocation {
  name: string;
  file: string;
  /** Known for a bundled vocabulary; read from the vocabulary on first use otherwise. */
  longestTokenBytes?: number;
}

function bundledLocation(family: TokenizerFamily): TokenizerLocation {
  return { name: family, file: join(bundledTokenizerDir(family), 'tokenizer.json'), longestTokenBytes: BUNDLED_LONGEST_TOKEN_BYTES };
}

/**
 * Finds the tokenizer `spec` names, looking at files only: `--tokenizer` (a local HF folder or
 * tokenizer.json; a non-path name may also pick a bundled vocabulary), otherwise `--model`: a
 * local folder with a tokenizer.json, else the bundled vocabulary of the model's family. Null
 * when there is no `--tokenizer` and the model has none; a `--tokenizer` that names nothing usable
 * is a one-line UserError.
 */
export function locateTokenizer(spec: TokenizerSpec): TokenizerLocation | null {
  const explicit = spec.tokenizer ?? null;
  if (explicit !== null && explicit !== '') {
    const file = localTokenizerJson(explicit);
    if (file !== null) return { name: explicit, file };
    if (existsSync(explicit)) {
      throw new UserError(`--tokenizer ${explicit} has no tokenizer.json: pass an HF tokenizer folder or a tokenizer.json file`);
    }
    const family = resolveTokenizerFamily(explicit);
    if (family === null) throw new UserError(`--tokenizer ${explicit} does not exist: pass a local HF folder or tokenizer.json (${bundledList()})`);
    return bundledLocation(family);
  }
  const model = spec.model ?? '';
  if (model === '') return null;
  const local = isFolder(model) ? localTokenizerJson(model) : null;
  if (local !== null) return { name: model, file: local };
  const family = resolveTokenizerFamily(basename(model)) ?? resolveTokenizerFamily(model);
  return family === null ? null : bundledLocation(family);
}

/** Loads the tokenizer {@link locateTokenizer} finds; a model without one is a one-line UserError naming --tokenizer. */
export async function loadTokenizer(spec: TokenizerSpec): Promise<Tokenizer> {
  const location = locateTokenizer(spec);
  if (location === null) {
    throw new UserError(`no tokenizer for model '${spec.model ?? ''}': pass --tokenizer with a local HF folder or tokenizer.json (${bundledList()})`);
  }
  return loadFromFile(location);
}

/**
 * The special tokens encode adds according to the tokenizer_config.json of a local model folder
 * (BOS/EOS it asks for), with the file read; null when `model` is not a folder holding one.
 */
export function specialTokensOfLocalConfig(model: string): { count: number; path: string } | null {
  const path = join(model, 'tokenizer_config.json');
  if (!isFolder(model) || !existsSync(path)) return null;
  return { count: specialTokenCount(readTokenizerConfig(readJsonObject(path))), path };
}
