/**
 * The tokenizer contract shared by datasets (prompt lengths), metrics (retokenized output counts)
 * and the simulator (output text). It mirrors the parts of a Hugging Face `PreTrainedTokenizerFast`
 * that bench_serving touches, with HF's defaults.
 */

/** One chat message as chat templates read it (content may be text or a list of parts). */
export interface TemplateMessage {
  role: string;
  content: unknown;
  [key: string]: unknown;
}

export interface ChatTemplateOptions {
  /** Append the assistant header so the model starts answering (HF `add_generation_prompt`). */
  addGenerationPrompt: boolean;
  /** Tool definitions passed to templates that render them. */
  tools?: unknown[];
  /** Extra template variables (e.g. `enable_thinking`). */
  extraContext?: Record<string, unknown>;
}

export interface Tokenizer {
  /** Where the vocabulary came from: a bundled family name or a local path. */
  readonly name: string;
  /** Base vocabulary size without added tokens (HF `vocab_size`). */
  readonly vocabSize: number;
  /** Special tokens `encode` adds with `addSpecialTokens` (HF `num_special_tokens_to_add()`), e.g. 1 for a BOS. */
  readonly numSpecialTokensToAdd: number;
  /** The BOS token text, or null when the tokenizer has none. */
  readonly bosToken: string | null;
  /** Whether a chat template is available. */
  readonly hasChatTemplate: boolean;
  /** HF `all_special_ids`: ids of bos/eos/unk/pad and `additional_special_tokens`, ascending. */
  readonly specialTokenIds: readonly number[];
  /**
   * At least as many UTF-8 bytes as the longest text one token stands for: a text of N bytes
   * (after the tokenizer's normalizer) has at least N / longestTokenBytes tokens. Read from the
   * vocabulary on first use, unless the bundled family states it.
   */
  readonly longestTokenBytes: number;

  /** Token ids of `text`; with `addSpecialTokens` (default true) BOS and the like are included, as HF `encode`. */
  encode(text: string, addSpecialTokens?: boolean): Promise<number[]>;
  /** `encode` over many texts at once, spread over the native thread pool. */
  encodeBatch(texts: readonly string[], addSpecialTokens?: boolean): Promise<number[][]>;
  /** Text of `ids`; special tokens are kept as text unless `skipSpecialTokens` (HF default false). */
  decode(ids: readonly number[], skipSpecialTokens?: boolean): Promise<string>;
  /** `decode` over many id lists at once. */
  decodeBatch(ids: readonly (readonly number[])[], skipSpecialTokens?: boolean): Promise<string[]>;
  /**
   * Every id of HF `get_vocab()` (added tokens included), ascending. Python's dict order comes from
   * a Rust HashMap and differs between processes, so the reference order is not reproducible.
   */
  vocabIds(): number[];
  /** The token string of `id`, or null. */
  idToToken(id: number): string | null;
  /** The id of a token string, or null. */
  tokenToId(token: string): number | null;
  /** Renders the chat template to text (HF `apply_chat_template(..., tokenize=False)`). Throws UserError without one. */
  applyChatTemplate(messages: readonly TemplateMessage[], options: ChatTemplateOptions): string;
}

/** Where to find a tokenizer: bench_serving's `--tokenizer`, falling back to `--model`. */
export interface TokenizerSpec {
  tokenizer?: string | null;
  model?: string | null;
}
