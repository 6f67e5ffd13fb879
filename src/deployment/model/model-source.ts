/**
 * Which architecture a launch simulates: `--sim-model` names a catalog entry; else a `--model-path` that is
 * a local model directory gives its config.json (as SGLang reads it); else the path's name is matched
 * against the catalog. This module does the file reads; the mapping itself is hf-config.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { ModelSpec, QuantName } from './catalog.js';
import { modelSpecFromHfConfig } from './hf-config.js';
import { identifyModel } from './identify.js';
import { quantFromName } from './quantization.js';

export interface ModelSource {
  model: ModelSpec;
  /** The weight format the checkpoint announces (its config's quantization_config, else its name), or null. */
  announcedQuant: QuantName | null;
}

/**
 * The config.json of a local model directory: the directory itself (a plain download or an HF cache
 * snapshot), or the snapshot an HF cache model directory's `refs/main` points at. Null when there is none.
 */
export function localConfigPath(modelPath: string): string | null {
  const direct = join(modelPath, 'config.json');
  if (existsSync(direct)) return direct;
  const ref = join(modelPath, 'refs', 'main');
  if (!existsSync(ref)) return null;
  const snapshot = join(modelPath, 'snapshots', readFileSync(ref, 'utf8').trim(), 'config.json');
  return existsSync(snapshot) ? snapshot : null;
}

/** The model's name in a local path: `Name` of an HF cache `models--org--Name/snapshots/<sha>`, else the last component. */
export function localModelName(modelPath: string): string {
  const cached = /models--[^/\\]+?--([^/\\]+)/.exec(modelPath);
  return cached?.[1] ?? basename(modelPath.replace(/[/\\]+$/, ''));
}

function readConfig(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UserError(`${file}: cannot read it as JSON (${(error as Error).message.split('\n')[0]}); pass a Hugging Face config.json, or --sim-model NAME`);
  }
}

/** The architecture and announced weight format of `--model-path` / `--sim-model`. */
export function resolveModel(modelPath: string, simModel: string | null): ModelSource {
  const configPath = simModel === null ? localConfigPath(modelPath) : null;
  if (configPath === null) {
    return { model: identifyModel(modelPath, simModel), announcedQuant: quantFromName(modelPath) };
  }
  const preprocessorPath = join(dirname(configPath), 'preprocessor_config.json');
  const preprocessor = existsSync(preprocessorPath) ? { config: readConfig(preprocessorPath), file: preprocessorPath } : undefined;
  const model = modelSpecFromHfConfig(readConfig(configPath), localModelName(modelPath), configPath, preprocessor);
  // A 16-bit checkpoint's config says nothing about its format; its name may (an Ascend `-W8A8` directory).
  return { model, announcedQuant: model.nativeQuant === 'bf16' ? quantFromName(modelPath) : model.nativeQuant };
}
