/**
 * Field checks of request bodies (pure): each returns the typed value or throws an HttpError (400)
 * naming the parameter, as OpenAI-compatible servers do.
 */
import { HttpError } from '../../core/http-error.js';
import { wrongType } from './error-body.js';

type Body = Record<string, unknown>;

/** An optional integer ≥ `min`; null/absent gives `fallback`. */
export function optionalInt(body: Body, key: string, fallback: number | null, min = 0): number | null {
  const value = body[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(key, 'an integer');
  if (value < min) throw new HttpError(400, `'${key}' must be at least ${min}, got ${value}`, { param: key });
  return value;
}

/** An optional boolean; null/absent gives `fallback`. */
export function optionalBool(body: Body, key: string, fallback: boolean): boolean {
  const value = body[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw wrongType(key, 'a boolean');
  return value;
}

/** Sampling parameters that are plain numbers: checked for type, logged, otherwise ignored by the sim. */
export const SAMPLING_NUMBER_FIELDS = ['temperature', 'top_p', 'top_k', 'min_p', 'frequency_penalty', 'presence_penalty'] as const;

/** An optional finite number (temperature, top_p, ...): checked for type only, the sim ignores its value. */
export function checkOptionalNumber(body: Body, key: string): void {
  const value = body[key];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(key, 'a number');
}

/** An optional plain object; null/absent gives null. */
export function optionalObject(body: Body, key: string): Record<string, unknown> | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw wrongType(key, 'an object');
  return value as Record<string, unknown>;
}

/** A string or a list of strings (`stop`, `stop_words`, `image_data`), as a list; null/absent gives []. */
export function stringList(body: Body, key: string): string[] {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((s) => typeof s === 'string')) return value as string[];
  throw wrongType(key, 'a string or a list of strings');
}

/** `n` must be 1 (or absent): the sim answers one choice per request. */
export function checkSingleChoice(body: Body): void {
  const n = optionalInt(body, 'n', 1, 1);
  if (n !== 1) throw new HttpError(400, `'n' = ${n} is not supported by the sim; send n = 1`, { param: 'n' });
}

/** A list of token ids, as `input_ids` or a tokenized prompt. */
export function isTokenIds(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);
}

/** SGLang's refusal of an input longer than the context length; `size` says how long: `5000 tokens`. */
export function contextLengthExceeded(size: string, contextLength: number, param: string): HttpError {
  return new HttpError(
    400,
    `The input (${size}) is longer than the model's context length (${contextLength} tokens).`,
    { param, apiCode: 'context_length_exceeded' },
  );
}

/** Rejects an empty prompt, and one whose tokens (plus the tokens asked for) exceed the context length (SGLang's messages). */
export function checkContextLength(promptTokens: number, maxNewTokens: number, contextLength: number, param: string): void {
  if (promptTokens === 0) throw new HttpError(400, 'The prompt is empty: send at least one token of input.', { param });
  if (promptTokens >= contextLength) throw contextLengthExceeded(`${promptTokens} tokens`, contextLength, param);
  if (promptTokens + maxNewTokens > contextLength) {
    throw new HttpError(
      400,
      `Requested token count exceeds the model's maximum context length of ${contextLength} tokens. You requested a total of ${promptTokens + maxNewTokens} tokens: ${promptTokens} tokens from the input messages and ${maxNewTokens} tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.`,
      { param, apiCode: 'context_length_exceeded' },
    );
  }
}

/**
 * The request's id: its `rid` when it sends one (SGLang takes `rid` on /generate and on its OpenAI
 * routes, and answers with it as the id), else `fallback()`. Refuses an id already running.
 */
export function requestId(body: Body, isRunning: (id: string) => boolean, fallback: () => string): string {
  const rid = body['rid'];
  if (rid !== undefined && rid !== null && typeof rid !== 'string') throw wrongType('rid', 'a string');
  const id = typeof rid === 'string' && rid !== '' ? rid : fallback();
  if (isRunning(id)) throw new HttpError(400, `a request with rid '${id}' is already running; send a unique rid`, { param: 'rid' });
  return id;
}

/**
 * The ids of a batch's `count` prompts: its `rid` list, else fresh ones (SGLang wants a list for a
 * batch). Refuses an id already running or given twice.
 */
export function batchRequestIds(body: Body, count: number, isRunning: (id: string) => boolean, fallback: () => string): string[] {
  const rid = body['rid'];
  if (rid === undefined || rid === null) return Array.from({ length: count }, fallback);
  if (!Array.isArray(rid) || !rid.every((r) => typeof r === 'string' && r !== '')) throw new HttpError(400, 'The rid should be a list for batch processing.', { param: 'rid' });
  if (rid.length !== count) throw new HttpError(400, `'rid' has ${rid.length} entries for ${count} prompts`, { param: 'rid' });
  const ids = rid as string[];
  const taken = ids.find((id, i) => isRunning(id) || ids.indexOf(id) !== i);
  if (taken !== undefined) throw new HttpError(400, `a request with rid '${taken}' is already running; send a unique rid`, { param: 'rid' });
  return ids;
}
