/**
 * Maps a model path or name (`/root/.cache/.../DeepSeek-V3.2-Exp-W8A8`, `deepseek-ai/DeepSeek-R1-0528`,
 * `qwen2.5-0.5b`, an HF cache dir `models--org--Name/snapshots/<sha>`) to its catalog entry.
 */
import { UserError } from '../../core/errors.js';
import { allModels, getModel, modelNames } from './bundled-models.js';
import type { ModelSpec } from './catalog.js';

/**
 * Name parts that leave the architecture as it is: releases (`-Instruct`, `-it`, `-Thinking`, training
 * stages such as MiMo's `-RL` / `-SFT`, dates such as `-0528` / `-2507`, versions such as `-v0.1`) and weight formats (`-FP8`, `-W4A8`, `-GPTQ-Int4`, ...).
 * Anything else after an alias (`-Distill-Qwen-32B`, `-Air`) names another model.
 */
const VARIANT_PART =
  'instruct|chat|base|it|pt|thinking|rl|sft|hf|bf16|fp16|fp8|int8|int4|w8a8|w4a8|w4a16|w8a16|w4afp8|awq|gptq|nvfp4|mxfp4|fp4' +
  '|dynamic|quantized|quarot|v\\d+(?:\\.\\d+)*|\\d{4}|\\d{6}|\\d{8}';
const VARIANT_TAIL = new RegExp(`^(?:[-_. ](?:${VARIANT_PART}))*$`);

/** True when `alias` occurs in `name` after a name boundary and is followed only by variant parts. */
function namesModel(name: string, alias: string): boolean {
  for (let at = name.indexOf(alias); at >= 0; at = name.indexOf(alias, at + 1)) {
    const startsAtBoundary = at === 0 || /[-_ ]/.test(name[at - 1]!);
    if (startsAtBoundary && VARIANT_TAIL.test(name.slice(at + alias.length))) return true;
  }
  return false;
}

/** The catalog entry whose longest alias names `name` (one path component, lower case), or null. */
function entryNamedBy(name: string): ModelSpec | null {
  let best: { model: ModelSpec; length: number } | null = null;
  for (const model of allModels()) {
    for (const alias of model.aliases) {
      if (alias.length > (best?.length ?? 0) && namesModel(name, alias)) best = { model, length: alias.length };
    }
  }
  return best?.model ?? null;
}

/**
 * The catalog entry a path or name refers to, or null. Path components are tried from the last one up,
 * so `org/Name`, local directories and HF cache snapshots (`models--org--Name/snapshots/<sha>`) all work.
 */
export function findModelByName(pathOrName: string): ModelSpec | null {
  const components = pathOrName.toLowerCase().replace(/\\/g, '/').split('/').filter((part) => part !== '');
  for (const component of components.reverse()) {
    const found = entryNamedBy(component);
    if (found) return found;
  }
  return null;
}

/**
 * The catalog model a path or name refers to. `simModel` (the `--sim-model` flag), when given, wins: a
 * catalog key, an alias or any name variant of one. Unknown ⇒ UserError naming the fix.
 */
export function identifyModel(pathOrName: string, simModel: string | null = null): ModelSpec {
  if (simModel !== null) {
    const wanted = simModel.trim().toLowerCase();
    const found = getModel(wanted) ?? findModelByName(wanted);
    if (!found) throw new UserError(`unknown --sim-model '${simModel}': use one of ${modelNames().join(', ')}`);
    return found;
  }
  const found = findModelByName(pathOrName);
  if (!found) {
    throw new UserError(
      `cannot tell which model '${pathOrName}' is: pass --sim-model with one of ${modelNames().join(', ')}, ` +
        `or a local --model-path directory holding the model's config.json`,
    );
  }
  return found;
}
