/**
 * OpenAI-compatible `POST /v1/completions` and `POST /v1/chat/completions`, streaming and not,
 * with `usage`, `stream_options`, `stop`, `ignore_eos`, reasoning (`--reasoning-parser`) and
 * tool calls (`--tool-call-parser` + `tools`). Errors use OpenAI's `{"error": {...}}` shape.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/http-error.js';
import type { TemplateMessage } from '../../tokenizer/index.js';
import { planOutput, type OutputPlan } from '../text/output-plan.js';
import { wrongType } from './error-body.js';
import { planChatAnswer, reasoningEnabled, type OfferedTool } from './chat-answer.js';
import { IMAGE_BODY_LIMIT, textBodyLimit } from './body-limit.js';
import { readJsonObjectText } from './http-io.js';
import { awaitPd, pdOutputLimit } from './disaggregation/pd-generation.js';
import { templateInput, type TemplateInput } from './chat-content.js';
import { expandImages } from './image-input.js';
import { boundedPromptIds } from './prompt-tokens.js';
import type { PyValue } from '../../core/pyrepr.js';
import {
  checkContextLength,
  checkOptionalNumber,
  checkSingleChoice,
  isTokenIds,
  optionalBool,
  optionalInt,
  optionalObject,
  requestId,
  SAMPLING_NUMBER_FIELDS,
  stringList,
} from './request-fields.js';
import type { LoggedRequest } from './request-log-format.js';
import { runGeneration, type GenerationJob, type SimContext } from './sim-context.js';
import { ChatFormatter, CompletionFormatter, type UsageOptions } from './wire-format.js';

/** OpenAI's default `max_tokens` for completions. */
const DEFAULT_COMPLETION_TOKENS = 16;
/** Chat without a limit may answer up to the rest of the context; the sim caps that draw here. */
const DEFAULT_CHAT_TOKENS_CAP = 4096;

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

function newId(prefix: string): string {
  return `${prefix}${randomUUID().replace(/-/g, '')}`;
}

/** Rejects a `model` that is neither the served name nor the model path. */
function checkModel(ctx: SimContext, body: Record<string, unknown>): void {
  const model = body['model'];
  if (model === undefined || model === null) return;
  if (typeof model !== 'string') throw wrongType('model', 'a string');
  if (model !== ctx.modelName && model !== ctx.launch.modelPath) {
    throw new HttpError(404, `The model '${model}' does not exist (this server serves '${ctx.modelName}').`, { param: 'model', type: 'NotFoundError', apiCode: 'model_not_found' });
  }
}

function usageOptions(body: Record<string, unknown>): UsageOptions {
  const options = optionalObject(body, 'stream_options') ?? {};
  return {
    includeUsage: optionalBool(options, 'include_usage', false),
    continuousUsage: optionalBool(options, 'continuous_usage_stats', false),
  };
}

interface CommonFields {
  stream: boolean;
  ignoreEos: boolean;
  stop: string[];
}

/** Checks shared by both routes; returns the sampling choices the sim honours. */
function commonFields(body: Record<string, unknown>): CommonFields {
  checkSingleChoice(body);
  for (const key of SAMPLING_NUMBER_FIELDS) checkOptionalNumber(body, key);
  return { stream: optionalBool(body, 'stream', false), ignoreEos: optionalBool(body, 'ignore_eos', false), stop: stringList(body, 'stop') };
}

/**
 * The request as `--log-requests` prints it: the GenerateReqInput SGLang makes of an OpenAI request,
 * with the sampling parameters the request set. Undefined when request lines are off.
 */
function loggedRequest(
  ctx: SimContext,
  id: string,
  body: Record<string, unknown>,
  fields: CommonFields,
  maxTokens: number,
  input: { text: string | null; ids: number[]; images: string[] },
): LoggedRequest | undefined {
  if (!ctx.log?.logsRequests) return undefined;
  const samplingParams: { [key: string]: PyValue } = { max_new_tokens: maxTokens };
  for (const key of SAMPLING_NUMBER_FIELDS) if (typeof body[key] === 'number') samplingParams[key] = body[key] as number;
  if (fields.stop.length > 0) samplingParams['stop'] = fields.stop;
  if (fields.ignoreEos) samplingParams['ignore_eos'] = true;
  const imageData = input.images.length > 0 ? input.images : null;
  return { rid: id, text: input.text, inputIds: input.text === null ? input.ids : null, imageData, samplingParams, stream: fields.stream };
}

async function completionPromptIds(ctx: SimContext, prompt: unknown): Promise<number[]> {
  if (typeof prompt === 'string') return boundedPromptIds(ctx, prompt, true, 'prompt');
  if (isTokenIds(prompt)) return prompt;
  if (Array.isArray(prompt) && prompt.length === 1) return completionPromptIds(ctx, prompt[0]);
  if (prompt === undefined || prompt === null) throw new HttpError(400, "'prompt' is required", { param: 'prompt' });
  throw wrongType('prompt', 'a string or a list of token ids (batches of prompts are not supported by the sim)');
}

/** Handles `POST /v1/completions`. */
export async function handleCompletions(ctx: SimContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrival = ctx.driver.clock.now();
  const request = await readJsonObjectText(req, textBodyLimit(ctx));
  const { body } = request;
  checkModel(ctx, body);
  const fields = commonFields(body);
  const { stream, ignoreEos, stop } = fields;
  const maxTokens = optionalInt(body, 'max_tokens', DEFAULT_COMPLETION_TOKENS)!;
  const usage = usageOptions(body);
  const ids = await completionPromptIds(ctx, body['prompt']);
  checkContextLength(ids.length, maxTokens, ctx.contextLength, 'prompt');
  const plan = planOutput(ctx.pool, ctx.launch.simSeed, { ...pdOutputLimit(ctx, maxTokens, ignoreEos), stop, requestIndex: ctx.nextRequestIndex() });
  const id = requestId(body, (rid) => ctx.driver.isActive(rid), () => newId('cmpl-'));
  const formatter = new CompletionFormatter({ id, model: requestedModel(ctx, body), created: unixNow(), promptTokens: ids.length, plan }, usage);
  const prompt = body['prompt'];
  const logged = loggedRequest(ctx, id, body, fields, maxTokens, { text: typeof prompt === 'string' ? prompt : null, ids, images: [] });
  const job: GenerationJob = { id, arrival, promptIds: ids, plan, logged };
  if (!(await awaitPd(ctx, res, [job], request, stream))) return;
  runGeneration(ctx, res, job, { event: (e) => formatter.event(e), collect: (e) => formatter.collect(e), body: (e) => formatter.body(e) }, stream);
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function requestedModel(ctx: SimContext, body: Record<string, unknown>): string {
  return typeof body['model'] === 'string' ? body['model'] : ctx.modelName;
}

function checkMessages(value: unknown): TemplateMessage[] {
  if (!Array.isArray(value) || value.length === 0) throw wrongType('messages', 'a non-empty list of messages');
  value.forEach((message, i) => {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) throw wrongType(`messages[${i}]`, 'an object');
    const { role, content } = message as Record<string, unknown>;
    if (typeof role !== 'string' || !ROLES.has(role)) throw wrongType(`messages[${i}].role`, `one of ${[...ROLES].join(', ')}`);
    if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) {
      throw wrongType(`messages[${i}].content`, 'a string, a list of content parts, or null');
    }
  });
  return value as TemplateMessage[];
}

function checkTools(body: Record<string, unknown>): OfferedTool[] {
  const tools = body['tools'];
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw wrongType('tools', 'a list of tools');
  return tools.map((tool, i) => {
    const fn = (tool as Record<string, unknown> | null)?.['function'] as Record<string, unknown> | undefined;
    if (fn === undefined || fn === null || typeof fn['name'] !== 'string') throw wrongType(`tools[${i}].function.name`, 'a string');
    const parameters = fn['parameters'];
    return { name: fn['name'], parameters: parameters !== null && typeof parameters === 'object' ? (parameters as Record<string, unknown>) : null };
  });
}

/** The tool the answer calls, or null: needs a tool-call parser, offered tools, and no tool result to answer yet. */
function chooseTool(ctx: SimContext, body: Record<string, unknown>, tools: OfferedTool[], messages: TemplateMessage[], requestIndex: number): OfferedTool | null {
  if (ctx.launch.toolCallParser === null || tools.length === 0) return null;
  if (messages[messages.length - 1]!.role === 'tool') return null;
  const choice = body['tool_choice'];
  if (choice === 'none') return null;
  if (choice !== null && typeof choice === 'object') {
    const name = ((choice as Record<string, unknown>)['function'] as Record<string, unknown> | undefined)?.['name'];
    const named = tools.find((t) => t.name === name);
    if (named === undefined) throw new HttpError(400, `tool_choice names a function that is not in 'tools': ${String(name)}`, { param: 'tool_choice' });
    return named;
  }
  return tools[requestIndex % tools.length]!;
}

/**
 * The prompt ids of a conversation: its template rendered over string contents (chat-content.ts),
 * then, for a vision-language model, each image placeholder expanded to the image's tokens.
 */
async function chatPromptIds(ctx: SimContext, input: TemplateInput, tools: unknown[] | undefined, kwargs: Record<string, unknown> | null): Promise<number[]> {
  let rendered: string;
  try {
    rendered = ctx.tokenizer.applyChatTemplate(input.messages, { addGenerationPrompt: true, tools, extraContext: kwargs ?? {} });
  } catch {
    // A template that cannot render this conversation still has a length: count the plain contents.
    rendered = input.messages.map((m) => m.content).join('\n');
  }
  const ids = await boundedPromptIds(ctx, rendered, false, 'messages');
  return ctx.vision === null ? ids : expandImages(ids, ctx.vision.padId, input.images, ctx.vision.config, 'messages');
}

/** Handles `POST /v1/chat/completions`. */
export async function handleChatCompletions(ctx: SimContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrival = ctx.driver.clock.now();
  const request = await readJsonObjectText(req, IMAGE_BODY_LIMIT);
  const { body } = request;
  checkModel(ctx, body);
  const messages = checkMessages(body['messages']);
  const fields = commonFields(body);
  const { stream, ignoreEos, stop } = fields;
  const tools = checkTools(body);
  const kwargs = optionalObject(body, 'chat_template_kwargs');
  const usage = usageOptions(body);
  const limit = optionalInt(body, 'max_completion_tokens', null) ?? optionalInt(body, 'max_tokens', null);
  const input = templateInput(messages, ctx.vision !== null);
  const ids = await chatPromptIds(ctx, input, Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : undefined, kwargs);
  const maxTokens = limit ?? Math.max(1, Math.min(DEFAULT_CHAT_TOKENS_CAP, ctx.contextLength - ids.length));
  checkContextLength(ids.length, maxTokens, ctx.contextLength, 'messages');
  const requestIndex = ctx.nextRequestIndex();
  const tool = chooseTool(ctx, body, tools, messages, requestIndex);
  const plan: OutputPlan = planOutput(ctx.pool, ctx.launch.simSeed, { ...pdOutputLimit(ctx, maxTokens, ignoreEos), stop, requestIndex });
  const answer = planChatAnswer({
    plan,
    reasoning: reasoningEnabled(ctx.launch.reasoningParser, kwargs),
    tool,
    pool: ctx.pool,
    seed: ctx.launch.simSeed,
    requestIndex,
    callId: newId('call_'),
  });
  const id = requestId(body, (rid) => ctx.driver.isActive(rid), () => newId('chatcmpl-'));
  const formatter = new ChatFormatter({ id, model: requestedModel(ctx, body), created: unixNow(), promptTokens: ids.length, plan }, answer, usage);
  const logged = loggedRequest(ctx, id, body, fields, maxTokens, { text: null, ids, images: input.images });
  const job: GenerationJob = { id, arrival, promptIds: ids, plan, logged };
  if (!(await awaitPd(ctx, res, [job], request, stream))) return;
  runGeneration(ctx, res, job, { event: (e) => formatter.event(e), collect: (e) => formatter.collect(e), body: (e) => formatter.body(e) }, stream);
}
