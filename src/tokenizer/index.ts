/** Public entry of the tokenizer package. */
export type { ChatTemplateOptions, TemplateMessage, Tokenizer, TokenizerSpec } from './types.js';
export { loadTokenizer, locateTokenizer, specialTokensOfLocalConfig, type TokenizerLocation } from './load.js';
export { listBundledTokenizers, resolveTokenizerFamily, bundledTokenizerDir, type TokenizerFamily } from './bundled.js';
