/**
 * Tokenizes a prompt within a memory bound. HF tokenizers hold about 650 bytes per token while
 * encoding (ids, offsets, token strings), and more per byte of one long word (a 3 MB run of spaces
 * took 270 MB): a 30 MB prompt took 27 s and 2.7 GB that the allocator never gave back. So a
 * prompt is measured against the context length before it is tokenized whole:
 *
 * 1. By its byte count, untokenized. One token stands for at most `longestTokenBytes` bytes of
 *    normalized text (128 for the bundled vocabularies), and normalization shrinks text at most 4×
 *    (NFKC maps the 4-byte 𝐀 to `A`; NFC composes three 3-byte Hangul jamo into one 3-byte
 *    syllable). So N bytes are at least N / (4 × 128) = N / 512 tokens, and a prompt whose bound
 *    reaches the context length is refused at once.
 * 2. Slice by slice. A prompt longer than one slice is counted one slice at a time (each slice's
 *    memory is freed before the next) and refused once the count reaches twice the context length:
 *    a cut changes the count by a few tokens, never by half.
 * 3. A prompt that may fit is tokenized whole, for exact ids, up to {@link WHOLE_PROMPT_UNITS};
 *    a longer one keeps its slices' ids. Slices end at a space between two letters where there is
 *    one, where the bundled byte-level vocabularies split words anyway, so their ids join into
 *    the whole text's; a hard cut (a long run with no such space) may change the count by a token.
 *    Special tokens come with the first slice: a BOS where the whole text would have it.
 */
import type { Tokenizer } from '../../tokenizer/index.js';
import { contextLengthExceeded } from './request-fields.js';

/** How many times fewer bytes a tokenizer's normalizer can make of a text (NFKC: 𝐀, 4 bytes → `A`). */
const NORMALIZATION_SHRINK = 4;
/** UTF-16 units per slice: at most 24 KB of UTF-8, so at most 24,000 tokens (about 16 MB) at a time. */
const SLICE_UNITS = 8192;
/** Longest prompt tokenized whole: 1 Mi UTF-16 units, about 150 MB while encoding. */
const WHOLE_PROMPT_UNITS = 1 << 20;
const LETTER = /\p{L}/u;

/** What prompt intake needs of the sim: its tokenizer, context length and byte bound. */
export interface PromptLimits {
  tokenizer: Tokenizer;
  contextLength: number;
  /** Most prompt bytes one token can stand for ({@link promptBytesPerToken}). */
  promptBytesPerToken: number;
}

/** The most prompt bytes one token of `tokenizer` can stand for, normalization included. */
export function promptBytesPerToken(tokenizer: Tokenizer): number {
  return NORMALIZATION_SHRINK * tokenizer.longestTokenBytes;
}

/** Where the slice from `start` ends: at the last space between two letters in its second half, else at its length, never inside a surrogate pair. */
function sliceEnd(text: string, start: number): number {
  const end = Math.min(start + SLICE_UNITS, text.length);
  if (end === text.length) return end;
  for (let k = end - 1; k > start + SLICE_UNITS / 2; k--) {
    if (text[k] === ' ' && LETTER.test(text[k - 1]!) && LETTER.test(text[k + 1]!)) return k;
  }
  return /[\ud800-\udbff]/.test(text[end - 1]!) ? end - 1 : end;
}

/** `text` cut into slices of at most {@link SLICE_UNITS}. */
function* slices(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start);
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * The prompt's token ids, or an HttpError (400, `context_length_exceeded`) for a prompt that cannot
 * fit the context length, found without tokenizing it whole (see the module comment).
 */
export async function boundedPromptIds(limits: PromptLimits, text: string, addSpecialTokens: boolean, param: string): Promise<number[]> {
  const { tokenizer, contextLength } = limits;
  const bytes = Buffer.byteLength(text);
  const fewestTokens = Math.ceil(bytes / limits.promptBytesPerToken);
  if (fewestTokens >= contextLength) {
    throw contextLengthExceeded(`at least ${fewestTokens} tokens: ${bytes} bytes`, contextLength, param);
  }
  if (text.length <= SLICE_UNITS) return tokenizer.encode(text, addSpecialTokens);
  const keepSliceIds = text.length > WHOLE_PROMPT_UNITS;
  const ids: number[] = [];
  let counted = 0;
  let first = true;
  for (const slice of slices(text)) {
    const sliceIds = await tokenizer.encode(slice, first && addSpecialTokens);
    first = false;
    counted += sliceIds.length;
    if (counted >= 2 * contextLength) throw contextLengthExceeded(`more than ${contextLength} tokens`, contextLength, param);
    if (keepSliceIds) for (const id of sliceIds) ids.push(id);
  }
  return keepSliceIds ? ids : tokenizer.encode(text, addSpecialTokens);
}
