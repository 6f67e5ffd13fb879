/**
 * How long a request body may be before the sim refuses it unread, by route. A refusal costs the
 * sim nothing: the 413 is answered from the declared length (or once a chunked body passes the
 * limit) and the rest of the body is read past, never held.
 *
 * - A body that may carry images (`/generate`'s `image_data`, chat's `image_url` parts; a text-only
 *   model drops them, as SGLang does, but still receives them) has no bound its prompt implies: a
 *   data URI of a large picture is megabytes whatever it becomes in tokens. It gets the sim's
 *   ceiling, {@link MAX_BODY_BYTES} (SGLang's server reads a body of any size).
 * - A text-only body (`/v1/completions`, the TensorRT and Truss routes) holds at most a prompt the
 *   context length allows, plus its other fields: a token stands for at most `promptBytesPerToken`
 *   bytes of text (prompt-tokens.ts) and a byte of text takes at most 6 bytes of JSON (a control
 *   character written `\u0001`). A longer body cannot hold a prompt that fits; the ceiling still applies.
 */
import type { PromptLimits } from './prompt-tokens.js';

/** The sim's ceiling on any body: a request with images as data URIs fits. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** The most bytes of JSON one byte of text takes: `\u0001` for a control character. */
const JSON_BYTES_PER_TEXT_BYTE = 6;
/** Room for a text-only body's other fields: a `logit_bias` over a whole 256k vocabulary is about 5 MB. */
const OTHER_FIELDS_BYTES = 8 * 1024 * 1024;

/** The longest body a route reads, and what a client refused by it should change. */
export interface BodyLimit {
  bytes: number;
  fix: string;
}

/** The limit of a route whose body may carry images. */
export const IMAGE_BODY_LIMIT: BodyLimit = { bytes: MAX_BODY_BYTES, fix: 'send smaller or fewer images, or a shorter prompt' };

/** The limit of a route that reads its body only for options (the profiler, cache flush). */
export const OPTIONS_BODY_LIMIT: BodyLimit = { bytes: MAX_BODY_BYTES, fix: 'send the options only' };

/** The limit of a text-only route: the longest body a prompt within the context length can need, at most the ceiling. */
export function textBodyLimit({ contextLength, promptBytesPerToken }: Pick<PromptLimits, 'contextLength' | 'promptBytesPerToken'>): BodyLimit {
  const needed = contextLength * promptBytesPerToken * JSON_BYTES_PER_TEXT_BYTE + OTHER_FIELDS_BYTES;
  if (needed >= MAX_BODY_BYTES) return { bytes: MAX_BODY_BYTES, fix: 'shorten the prompt' };
  return { bytes: needed, fix: `a prompt within the model's context length (${contextLength} tokens) needs fewer; shorten the prompt` };
}
