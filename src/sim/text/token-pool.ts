/**
 * The vocabulary the sim writes its answers with: space-prefixed lowercase words that are single
 * tokens of the model's tokenizer and stay single tokens when concatenated, so a client that
 * re-tokenizes the streamed text counts exactly the tokens the sim reported.
 */
import { UserError } from '../../core/errors.js';

/** Byte-level BPE spells a leading space as `Ġ` (Qwen, DeepSeek, Llama 3, GPT-2 family). */
const WORD_TOKEN = /^Ġ([a-z]{3,10})$/;

export interface TokenPool {
  /** Token ids, index-aligned with `texts`. */
  ids: Int32Array;
  /** Decoded text of each token, e.g. `" model"`; JSON-safe without escaping. */
  texts: string[];
}

/** Encodes text to token ids without special tokens. */
export type EncodeFn = (text: string) => Promise<ArrayLike<number>>;

function sameIds(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Picks up to `size` word tokens from a vocabulary given in ascending id order (lowest ids first:
 * the most frequent merges) and proves the round trip: encoding the concatenation of all of them
 * yields exactly their ids. Stops reading the vocabulary once it has `size` words: a full pass
 * (150k tokens as strings) is most of the sim's start-up and leaves old-space garbage that a
 * mark-compact would collect in the middle of the first run.
 * Throws `UserError` when the vocabulary has no such words (not a byte-level BPE tokenizer).
 */
export async function buildTokenPool(
  vocabulary: Iterable<[string, number]>,
  encode: EncodeFn,
  size = 2048,
): Promise<TokenPool> {
  const chosen: Array<{ id: number; text: string }> = [];
  for (const [token, id] of vocabulary) {
    const match = WORD_TOKEN.exec(token);
    if (match === null) continue;
    const text = ` ${match[1]}`;
    if (!sameIds(await encode(text), [id])) continue;
    chosen.push({ id, text });
    if (chosen.length >= size) break;
  }
  if (chosen.length < 16) {
    throw new UserError('the tokenizer has too few space-prefixed word tokens for sim output; use a byte-level BPE model (e.g. --sim-model qwen3-8b)');
  }
  const ids = Int32Array.from(chosen, (c) => c.id);
  const texts = chosen.map((c) => c.text);
  // Words are separate pre-tokens, so concatenation must not merge across them; prove it once.
  if (!sameIds(await encode(texts.join('')), ids)) {
    throw new UserError('sim output words do not round-trip through this tokenizer; report the model path as a bug');
  }
  return { ids, texts };
}
