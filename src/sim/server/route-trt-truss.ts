/**
 * The two non-SGLang generation routes bench_serving drives (spec §2.5, §2.6), served by the same
 * engine so every `--backend` can run against the sim: TensorRT-LLM's Triton ensemble
 * `POST /v2/models/ensemble/generate_stream` and Baseten Truss `POST /v1/models/model:predict`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/http-error.js';
import { planOutput } from '../text/output-plan.js';
import { wrongType } from './error-body.js';
import { textBodyLimit } from './body-limit.js';
import { readJsonObject } from './http-io.js';
import { boundedPromptIds } from './prompt-tokens.js';
import { checkContextLength, checkOptionalNumber, optionalBool, optionalInt, stringList } from './request-fields.js';
import { handleCompletions } from './route-openai.js';
import { runGeneration, type SimContext } from './sim-context.js';
import { TrtFormatter } from './wire-format.js';

export type GenerationHandler = (ctx: SimContext, req: IncomingMessage, res: ServerResponse) => Promise<void>;

export const TRT_STREAM_PATH = '/v2/models/ensemble/generate_stream';
export const TRUSS_PREDICT_PATH = '/v1/models/model:predict';

/** `text_input`, required: the ensemble has no default prompt. */
function textInput(body: Record<string, unknown>): string {
  const text = body['text_input'];
  if (text === undefined || text === null) throw new HttpError(400, "'text_input' is required", { param: 'text_input' });
  if (typeof text !== 'string') throw wrongType('text_input', 'a string (batches are not supported by the sim)');
  return text;
}

/**
 * Whether EOS can never end the answer: `min_length` reaching `max_tokens`, or an `end_id` that is
 * no token of the vocabulary (bench sends both unless `--disable-ignore-eos`). A `min_length` below
 * `max_tokens` is not honoured: the early end is drawn over the whole range, as without it.
 */
function ignoresEos(ctx: SimContext, body: Record<string, unknown>, maxTokens: number): boolean {
  const minLength = optionalInt(body, 'min_length', 0)!;
  const endId = optionalInt(body, 'end_id', null);
  return minLength >= maxTokens || (endId !== null && ctx.tokenizer.idToToken(endId) === null);
}

/** Handles `POST /v2/models/ensemble/generate_stream`. */
export async function handleTrtGenerateStream(ctx: SimContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrival = ctx.driver.clock.now();
  const body = await readJsonObject(req, textBodyLimit(ctx));
  const text = textInput(body);
  const maxTokens = optionalInt(body, 'max_tokens', null, 1);
  if (maxTokens === null) throw new HttpError(400, "'max_tokens' is required", { param: 'max_tokens' });
  const ignoreEos = ignoresEos(ctx, body, maxTokens);
  for (const key of ['temperature', 'top_p', 'top_k', 'frequency_penalty', 'presence_penalty']) checkOptionalNumber(body, key);
  // Type-checked only: the sim writes each step's own text whatever it says (see TrtFormatter).
  optionalBool(body, 'accumulate_tokens', false);
  // The route streams unless the request turns it off; then the answer is one JSON object.
  const stream = optionalBool(body, 'stream', true);
  const stop = stringList(body, 'stop_words');
  const ids = await boundedPromptIds(ctx, text, true, 'text_input');
  checkContextLength(ids.length, maxTokens, ctx.contextLength, 'text_input');
  const plan = planOutput(ctx.pool, ctx.launch.simSeed, { maxNewTokens: maxTokens, ignoreEos, stop, requestIndex: ctx.nextRequestIndex() });
  runGeneration(ctx, res, { id: randomUUID().replace(/-/g, ''), arrival, promptIds: ids, plan }, new TrtFormatter(plan), stream);
}

/**
 * The handler of a bench-only generation route, or null. Truss's predict body is a completions
 * body (`model`, `prompt`, `max_tokens`, `stream`, `ignore_eos`, `best_of`) and its stream is
 * completions' (spec §2.6), so the completions handler answers it unchanged.
 */
export function benchOnlyGeneration(path: string): GenerationHandler | null {
  if (path === TRT_STREAM_PATH) return handleTrtGenerateStream;
  if (path === TRUSS_PREDICT_PATH) return handleCompletions;
  return null;
}
