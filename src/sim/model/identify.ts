/**
 * Maps a model path or name (`/root/.cache/.../DeepSeek-V3.2-Exp-W8A8`, `deepseek-ai/DeepSeek-V3.2-Exp`,
 * `qwen2.5-0.5b`, an HF cache dir `models--org--Name/snapshots/<sha>`) to its catalog entry.
 */
import { UserError } from '../../core/errors.js';
import { allModels, getModel, modelNames, type ModelSpec } from './catalog.js';

/** True when `alias` occurs in `text` starting and ending at a name boundary. */
function occursAtBoundary(text: string, alias: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(alias, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + alias.length] ?? '';
    const startOk = before === '' || /[/\-_ ]/.test(before);
    const endOk = after === '' || /[/\-_ ]/.test(after);
    if (startOk && endOk) return true;
    from = at + 1;
  }
}

/**
 * The catalog model a path or name refers to: the entry whose longest alias occurs in it at a name
 * boundary. `simModel` (the `--sim-model` flag), when given, wins and must be a catalog key or alias.
 * Unknown ⇒ UserError naming the fix.
 */
export function identifyModel(pathOrName: string, simModel: string | null = null): ModelSpec {
  if (simModel !== null) {
    const wanted = simModel.trim().toLowerCase();
    const direct = getModel(wanted) ?? allModels().find((m) => m.aliases.includes(wanted));
    if (!direct) {
      throw new UserError(`unknown --sim-model '${simModel}': use one of ${modelNames().join(', ')}`);
    }
    return direct;
  }
  const text = pathOrName.toLowerCase().replace(/\\/g, '/');
  let best: { model: ModelSpec; length: number } | null = null;
  for (const model of allModels()) {
    for (const alias of model.aliases) {
      if (alias.length > (best?.length ?? 0) && occursAtBoundary(text, alias)) best = { model, length: alias.length };
    }
  }
  if (!best) {
    throw new UserError(
      `cannot tell which model '${pathOrName}' is: pass --sim-model with one of ${modelNames().join(', ')} ` +
        `(or a --model-path that names one)`,
    );
  }
  return best.model;
}
