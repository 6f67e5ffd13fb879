/**
 * SGLang native `POST /generate` (spec §2.2): `text` or `input_ids`, `sampling_params`, `stream`.
 * Streams cumulative text with `meta_info.completion_tokens`; errors use SGLang's `{"error": {"message"}}`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/http-error.js';
import { planOutput } from '../text/output-plan.js';
import { wrongType } from './error-body.js';
import { IMAGE_BODY_LIMIT } from './body-limit.js';
import { bootstrapTargets } from './disaggregation/bootstrap-fields.js';
import { PdFailure } from './disaggregation/pd-failures.js';
import { pdJobFields, sendPdFailure, type PdJobFields } from './disaggregation/pd-generation.js';
import { readJsonObjectText } from './http-io.js';
import { expandImages } from './image-input.js';
import { boundedPromptIds } from './prompt-tokens.js';
import type { PyValue } from '../../core/pyrepr.js';
import {
  checkContextLength,
  checkOptionalNumber,
  isTokenIds,
  optionalBool,
  optionalInt,
  optionalObject,
  requestId,
  SAMPLING_NUMBER_FIELDS,
  stringList,
} from './request-fields.js';
import { runGeneration, type SimContext } from './sim-context.js';
import { NativeFormatter } from './wire-format.js';

/** SGLang's default `max_new_tokens`. */
const DEFAULT_MAX_NEW_TOKENS = 128;

async function promptIds(ctx: SimContext, body: Record<string, unknown>): Promise<number[]> {
  const { text, input_ids: inputIds } = body;
  if (inputIds !== undefined && inputIds !== null) {
    if (!isTokenIds(inputIds)) throw wrongType('input_ids', 'a non-empty list of token ids (batches are not supported by the sim)');
    return inputIds;
  }
  if (text === undefined || text === null) throw new HttpError(400, 'Either text or input_ids should be provided.', { param: 'text' });
  if (typeof text !== 'string') throw wrongType('text', 'a string (batches are not supported by the sim)');
  return boundedPromptIds(ctx, text, true, 'text');
}

/** Handles `POST /generate`. */
export async function handleGenerate(ctx: SimContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrival = ctx.driver.clock.now();
  const { body, text: bodyText } = await readJsonObjectText(req, IMAGE_BODY_LIMIT);
  const sampling = optionalObject(body, 'sampling_params') ?? {};
  const asked = optionalInt(sampling, 'max_new_tokens', DEFAULT_MAX_NEW_TOKENS)!;
  // A prefill instance makes the first token only (prefill.py L304-308); its decode makes the rest.
  const pdPrefill = ctx.pd?.mode === 'prefill';
  const maxNewTokens = pdPrefill ? 1 : asked;
  const ignoreEos = optionalBool(sampling, 'ignore_eos', false);
  const stop = stringList(sampling, 'stop');
  for (const key of SAMPLING_NUMBER_FIELDS) checkOptionalNumber(sampling, key);
  const stream = optionalBool(body, 'stream', false);
  const id = requestId(body, (rid) => ctx.driver.isActive(rid), () => randomUUID().replace(/-/g, ''));
  // A vision-language model reads `image_data` into its prompt's placeholders; a text-only one has no processor for it (as in SGLang).
  const images = stringList(body, 'image_data');
  const textIds = await promptIds(ctx, body);
  const ids = ctx.vision === null ? textIds : expandImages(textIds, ctx.vision.padId, images, ctx.vision.config, 'image_data');
  checkContextLength(ids.length, asked, ctx.contextLength, 'text');
  const target = ctx.pd === null ? null : bootstrapTargets(body, bodyText, 1)?.[0] ?? null;
  const requestIndex = ctx.nextRequestIndex();
  const plan = planOutput(ctx.pool, ctx.launch.simSeed, { maxNewTokens, ignoreEos: ignoreEos || pdPrefill, stop, requestIndex });
  const formatter = new NativeFormatter({ id, model: ctx.modelName, created: Math.floor(Date.now() / 1000), promptTokens: ids.length, plan, pdPrefill });
  const logged = ctx.log?.logsRequests
    ? { rid: id, text: typeof body['text'] === 'string' ? body['text'] : null, inputIds: isTokenIds(body['input_ids']) ? ids : null, imageData: images.length > 0 ? images : null, samplingParams: sampling as { [key: string]: PyValue }, stream }
    : undefined;
  let pd: PdJobFields = {};
  if (ctx.pd !== null) {
    const gone = new AbortController();
    res.on('close', () => gone.abort(new Error('the client left')));
    try {
      pd = await pdJobFields(ctx, ctx.pd, id, ids.length, target, gone.signal);
    } catch (error) {
      if (!(error instanceof PdFailure)) throw error;
      sendPdFailure(res, error, stream, id, ids.length, ctx.driver.clock.now() - arrival);
      return;
    }
  }
  runGeneration(ctx, res, { id, arrival, promptIds: ids, plan, logged, ...pd }, formatter, stream);
}
