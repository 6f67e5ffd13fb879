/**
 * SGLang native `POST /generate` (spec §2.2): `text` or `input_ids` (one prompt or a batch), `sampling_params`, `stream`.
 * Streams cumulative text with `meta_info.completion_tokens`; errors use SGLang's `{"error": {"message"}}`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/http-error.js';
import { planOutput } from '../text/output-plan.js';
import { wrongType } from './error-body.js';
import { IMAGE_BODY_LIMIT } from './body-limit.js';
import { batchOutputs } from './batch-answer.js';
import { awaitPd, pdOutputLimit } from './disaggregation/pd-generation.js';
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
  batchRequestIds,
  requestId,
  SAMPLING_NUMBER_FIELDS,
  stringList,
} from './request-fields.js';
import { checkRunnable, runGeneration, runGenerationTo, type GenerationJob, type SimContext } from './sim-context.js';
import { NativeFormatter } from './wire-format.js';

/** SGLang's default `max_new_tokens`. */
const DEFAULT_MAX_NEW_TOKENS = 128;

/** A request's prompts: one, or a batch (`text` a list of strings, `input_ids` a list of lists), as SGLang takes them. */
async function prompts(ctx: SimContext, body: Record<string, unknown>): Promise<{ batch: boolean; prompts: number[][] }> {
  const { text, input_ids: inputIds } = body;
  if (inputIds !== undefined && inputIds !== null) {
    if (isTokenIds(inputIds)) return { batch: false, prompts: [inputIds] };
    if (Array.isArray(inputIds) && inputIds.length > 0 && inputIds.every(isTokenIds)) return { batch: true, prompts: inputIds };
    throw wrongType('input_ids', 'a non-empty list of token ids, or a list of them (a batch)');
  }
  if (text === undefined || text === null) throw new HttpError(400, 'Either text or input_ids should be provided.', { param: 'text' });
  if (typeof text === 'string') return { batch: false, prompts: [await boundedPromptIds(ctx, text, true, 'text')] };
  if (Array.isArray(text) && text.length > 0 && text.every((t) => typeof t === 'string')) {
    return { batch: true, prompts: await Promise.all(text.map((t: string) => boundedPromptIds(ctx, t, true, 'text'))) };
  }
  throw wrongType('text', 'a string, or a non-empty list of strings (a batch)');
}

/** One prompt of a request, ready to run. */
interface Prompt {
  job: GenerationJob;
  formatter: NativeFormatter;
}

/** Handles `POST /generate`. */
export async function handleGenerate(ctx: SimContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrival = ctx.driver.clock.now();
  const { body, text: bodyText } = await readJsonObjectText(req, IMAGE_BODY_LIMIT);
  const sampling = optionalObject(body, 'sampling_params') ?? {};
  const asked = optionalInt(sampling, 'max_new_tokens', DEFAULT_MAX_NEW_TOKENS)!;
  const pdPrefill = ctx.pd?.mode === 'prefill';
  const limit = pdOutputLimit(ctx, asked, optionalBool(sampling, 'ignore_eos', false));
  const stop = stringList(sampling, 'stop');
  for (const key of SAMPLING_NUMBER_FIELDS) checkOptionalNumber(sampling, key);
  const stream = optionalBool(body, 'stream', false);
  // A vision-language model reads `image_data` into its prompt's placeholders; a text-only one has no processor for it (as in SGLang).
  const images = stringList(body, 'image_data');
  const { batch, prompts: textIds } = await prompts(ctx, body);
  if (batch && images.length > 0) throw new HttpError(400, "'image_data' with a batch of prompts is not supported by the sim: send one prompt per request", { param: 'image_data' });
  const fresh = () => randomUUID().replace(/-/g, '');
  const isRunning = (rid: string) => ctx.driver.isActive(rid);
  const ids = batch ? batchRequestIds(body, textIds.length, isRunning, fresh) : [requestId(body, isRunning, fresh)];
  const texts = Array.isArray(body['text']) ? (body['text'] as string[]) : [typeof body['text'] === 'string' ? body['text'] : null];
  const items = textIds.map((promptTextIds, i): Prompt => {
    const id = ids[i]!;
    const promptIds = ctx.vision === null ? promptTextIds : expandImages(promptTextIds, ctx.vision.padId, images, ctx.vision.config, 'image_data');
    checkContextLength(promptIds.length, asked, ctx.contextLength, 'text');
    const plan = planOutput(ctx.pool, ctx.launch.simSeed, { ...limit, stop, requestIndex: ctx.nextRequestIndex() });
    const formatter = new NativeFormatter({ id, model: ctx.modelName, created: Math.floor(Date.now() / 1000), promptTokens: promptIds.length, plan, pdPrefill });
    const logged = ctx.log?.logsRequests
      ? { rid: id, text: texts[i] ?? null, inputIds: body['input_ids'] != null ? promptIds : null, imageData: images.length > 0 ? images : null, samplingParams: sampling as { [key: string]: PyValue }, stream }
      : undefined;
    return { job: { id, arrival, promptIds, plan, logged }, formatter };
  });
  if (!(await awaitPd(ctx, res, items.map((item) => item.job), { body, text: bodyText }, stream))) return;
  if (!batch) {
    runGeneration(ctx, res, items[0]!.job, items[0]!.formatter, stream);
    return;
  }
  for (const { job } of items) checkRunnable(ctx, job);
  const outputs = batchOutputs(res, stream, items.length);
  if (outputs !== null) items.forEach(({ job, formatter }, i) => runGenerationTo(ctx, outputs[i]!, job, formatter));
}
