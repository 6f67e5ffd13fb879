/**
 * Finds and loads the tokenizer for a run, as bench_serving's `get_tokenizer(--tokenizer or --model)`
 * but offline: a local HF folder or tokenizer.json, else a bundled vocabulary picked by model name.
 * Loaded tokenizers are cached per file for the life of the process.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { isObject } from '../core/json-object.js';
import { bundledTokenizerDir, resolveTokenizerFamily } from './bundled.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import { readTokenizerConfig } from './tokenizer-config.js';
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
function loadFromFile(name: string, tokenizerJsonPath: string): Promise<Tokenizer> {
  const key = resolve(tokenizerJsonPath);
  let pending = cache.get(key);
  if (pending === undefined) {
    const folder = dirname(key);
    const configPath = join(folder, 'tokenizer_config.json');
    const config = existsSync(configPath) ? readJsonObject(configPath) : {};
    const info = readTokenizerConfig(config, readOptional(join(folder, 'chat_template.jinja')));
    pending = createHfTokenizer(name, key, info).catch((error: unknown) => {
      cache.delete(key);
      if (error instanceof UserError) throw error;
      throw new UserError(`cannot load tokenizer ${key}: ${(error as Error).message.split('\n')[0]}; pass a valid HF tokenizer.json`);
    });
    cache.set(key, pending);
  }
  return pending;
}

/** tokenizer.json of a local path (folder or file), or null when `path` does not exist. */
function localTokenizerJson(path: string): string | null {
  if (!existsSync(path)) return null;
  if (statSync(path).isDirectory()) {
    const file = join(path, 'tokenizer.json');
    return existsSync(file) ? file : null;
  }
  return path;
}

function noTokenizer(name: string): UserError {
  return new UserError(
    `no tokenizer for model '${name}': pass --tokenizer with a local HF folder or tokenizer.json (bundled: Qwen2.5/Qwen3, DeepSeek-V3/R1/V3.2)`,
  );
}

/**
 * Resolves `--tokenizer` (a local HF folder or tokenizer.json; a non-path name may also pick a
 * bundled vocabulary), otherwise `--model`: a local folder with a tokenizer.json, else the bundled
 * vocabulary of the model's family. Throws a one-line UserError when nothing fits.
 */
export async function loadTokenizer(spec: TokenizerSpec): Promise<Tokenizer> {
  const explicit = spec.tokenizer ?? null;
  if (explicit !== null && explicit !== '') {
    const file = localTokenizerJson(explicit);
    if (file !== null) return loadFromFile(explicit, file);
    if (existsSync(explicit)) {
      throw new UserError(`--tokenizer ${explicit} has no tokenizer.json: pass an HF tokenizer folder or a tokenizer.json file`);
    }
    const family = resolveTokenizerFamily(explicit);
    if (family === null) {
      throw new UserError(`--tokenizer ${explicit} does not exist: pass a local HF folder or tokenizer.json (bundled: Qwen2.5/Qwen3, DeepSeek-V3/R1/V3.2)`);
    }
    return loadFromFile(family, join(bundledTokenizerDir(family), 'tokenizer.json'));
  }
  const model = spec.model ?? '';
  if (model === '') throw noTokenizer(model);
  const local = existsSync(model) && statSync(model).isDirectory() ? localTokenizerJson(model) : null;
  if (local !== null) return loadFromFile(model, local);
  const family = resolveTokenizerFamily(basename(model)) ?? resolveTokenizerFamily(model);
  if (family === null) throw noTokenizer(model);
  return loadFromFile(family, join(bundledTokenizerDir(family), 'tokenizer.json'));
}
