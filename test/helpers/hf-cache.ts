/**
 * A model written into a temporary Hugging Face cache as huggingface_hub lays it out
 * (`models--org--name/snapshots/<commit>/<file>`, `refs/<name>` holding a commit), for tests of
 * what servebench finds there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A repo's history as a test states it. */
export interface RepoFiles {
  /** Each revision name (branch or tag) to its commit. */
  refs: Record<string, string>;
  /** Each commit's files: name to content (objects are written as JSON). */
  commits: Record<string, Record<string, unknown>>;
}

/** Writes `repo`'s commits and refs under `cacheDir`; returns its `models--org--name` folder. */
export function writeCachedRepo(cacheDir: string, repoId: string, repo: RepoFiles): string {
  const folder = join(cacheDir, `models--${repoId.replace('/', '--')}`);
  for (const [commit, files] of Object.entries(repo.commits)) {
    mkdirSync(join(folder, 'snapshots', commit), { recursive: true });
    for (const [name, content] of Object.entries(files)) {
      writeFileSync(join(folder, 'snapshots', commit, name), typeof content === 'string' ? content : JSON.stringify(content));
    }
  }
  mkdirSync(join(folder, 'refs'), { recursive: true });
  for (const [name, commit] of Object.entries(repo.refs)) writeFileSync(join(folder, 'refs', name), commit);
  return folder;
}

/** Qwen2.5-0.5B's shape under a name no bundled model has: a config.json the hub tests serve and cache. */
export const TINY_QWEN2_CONFIG = {
  architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', num_hidden_layers: 24, hidden_size: 896, num_attention_heads: 14,
  num_key_value_heads: 2, intermediate_size: 4864, vocab_size: 151936, max_position_embeddings: 32768, tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
};
