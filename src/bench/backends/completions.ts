/**
 * OpenAI Completions (`sglang-oai`, `vllm`, `lmdeploy`, `openai`) and Truss → a completions-shaped
 * stream (spec §2.3, §2.6). A chunk whose `choices[0].text` is non-empty is one token arrival.
 */
import type { RequestInput } from '../types.js';
import { BaseResponseParser } from './parser-base.js';
import { MalformedChunkError, field } from './timeline.js';
import type { BackendAdapter, PayloadOptions } from './types.js';

/**
 * Adds the `temperature` / `ignore_eos` defaults the extra body does not set, then the extra body
 * (which overrides), then the LoRA override of `model` and `lora_path` (§2.3, §2.4, Q25).
 */
export function applyOpenAiDefaults(
  payload: Record<string, unknown>,
  input: RequestInput,
  options: PayloadOptions,
): Record<string, unknown> {
  if (!('temperature' in input.extraRequestBody)) payload.temperature = 0.0;
  if (!('ignore_eos' in input.extraRequestBody)) payload.ignore_eos = !options.disableIgnoreEos;
  Object.assign(payload, input.extraRequestBody);
  if (input.loraName) {
    payload.model = input.loraName;
    payload.lora_path = input.loraName;
  }
  return payload;
}

/** The /v1/completions payload; images travel as SGLang's top-level `image_data`. */
export function completionsPayload(input: RequestInput, options: PayloadOptions): Record<string, unknown> {
  const payload = applyOpenAiDefaults(
    {
      model: input.model,
      prompt: input.prompt,
      best_of: 1,
      max_tokens: input.outputLen,
      stream: !options.disableStream,
    },
    input,
    options,
  );
  if (input.imageData && input.imageData.length > 0) payload.image_data = input.imageData;
  return payload;
}

/** Truss's fixed payload: no LoRA, no images, extra body spread last. */
export function trussPayload(input: RequestInput, options: PayloadOptions): Record<string, unknown> {
  return {
    model: input.model,
    prompt: input.prompt,
    temperature: 0.0,
    best_of: 1,
    max_tokens: input.outputLen,
    stream: !options.disableStream,
    ignore_eos: !options.disableIgnoreEos,
    ...input.extraRequestBody,
  };
}

interface CompletionsFlavour {
  /** Record decode chunk texts (used by the retokenized ITL); Truss does not. */
  recordChunks: boolean;
  /** Read `usage.completion_tokens`; Truss always reports the requested length. */
  readUsage: boolean;
}

class CompletionsParser extends BaseResponseParser {
  constructor(
    st: number,
    requestedLen: number,
    private readonly flavour: CompletionsFlavour,
  ) {
    super(st, requestedLen);
  }

  onChunk(data: unknown, now: number): void {
    this.timeline.line(now);
    const choices = field(data, 'choices');
    if (!Array.isArray(choices)) {
      const error = field(data, 'error');
      throw new MalformedChunkError(
        error !== undefined ? `server error in stream: ${JSON.stringify(error)}` : 'malformed chunk: no "choices" list',
      );
    }
    // An empty choices list is a usage-only chunk (Q2 F): read its usage, count no token.
    if (choices.length === 0) {
      this.readUsage(data);
      return;
    }
    const text = field(choices[0], 'text');
    if (typeof text !== 'string' || text === '') return;
    this.timeline.arrival(now, 1, this.flavour.recordChunks ? text : undefined);
    this.generatedText += text;
    this.readUsage(data);
  }

  private readUsage(data: unknown): void {
    if (this.flavour.readUsage) this.adoptUsage(data);
  }
}

export const completionsBackend: BackendAdapter = {
  sendsAuth: true,
  buildBody: (input, options) => ({ body: completionsPayload(input, options), stream: !options.disableStream }),
  createParser: (input, st) => new CompletionsParser(st, input.outputLen, { recordChunks: true, readUsage: true }),
};

export const trussBackend: BackendAdapter = {
  sendsAuth: true,
  buildBody: (input, options) => ({ body: trussPayload(input, options), stream: !options.disableStream }),
  createParser: (input, st) => new CompletionsParser(st, input.outputLen, { recordChunks: false, readUsage: false }),
};
