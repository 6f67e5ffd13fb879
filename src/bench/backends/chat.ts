/**
 * OpenAI Chat (`sglang-oai-chat`, `vllm-chat`, `lmdeploy-chat`, `openai-chat`) → POST
 * /v1/chat/completions (spec §2.4). TTFT is the first `content` token, as in the reference;
 * the first `reasoning_content` token's time is recorded separately.
 */
import type { ChatMessage, RequestInput } from '../types.js';
import { applyOpenAiDefaults } from './completions.js';
import { BaseResponseParser } from './parser-base.js';
import { MalformedChunkError, field } from './timeline.js';
import type { BackendAdapter, ParsedResponse, PayloadOptions } from './types.js';

/** The messages of a request: a list prompt verbatim, else one user message (with images first). */
export function chatMessages(input: RequestInput): unknown[] {
  if (Array.isArray(input.prompt)) return input.prompt;
  if (input.imageData && input.imageData.length > 0) {
    const content: unknown[] = input.imageData.map((url) => ({ type: 'image_url', image_url: { url } }));
    content.push({ type: 'text', text: input.prompt });
    return [{ role: 'user', content }];
  }
  const message: ChatMessage = { role: 'user', content: input.prompt };
  return [message];
}

/** The /v1/chat/completions payload. */
export function chatPayload(input: RequestInput, options: PayloadOptions): Record<string, unknown> {
  return applyOpenAiDefaults(
    {
      model: input.model,
      messages: chatMessages(input),
      max_completion_tokens: input.outputLen,
      stream: !options.disableStream,
    },
    input,
    options,
  );
}

class ChatParser extends BaseResponseParser {
  private firstReasoningTtft: number | undefined;

  onChunk(data: unknown, now: number): void {
    this.timeline.line(now);
    const choices = field(data, 'choices') ?? [{}];
    if (!Array.isArray(choices)) throw new MalformedChunkError('malformed chunk: "choices" is not a list');
    // An empty choices list is a usage-only chunk (Q2 F).
    if (choices.length > 0) {
      const delta = field(choices[0], 'delta');
      const reasoning = field(delta, 'reasoning_content');
      if (this.firstReasoningTtft === undefined && typeof reasoning === 'string' && reasoning !== '') {
        this.firstReasoningTtft = now - this.timeline.st;
      }
      const content = field(delta, 'content');
      if (typeof content === 'string' && content !== '') {
        this.timeline.arrival(now, 1, content);
        this.generatedText += content;
      }
    }
    this.adoptUsage(data);
  }

  override onBody(data: unknown, now: number): void {
    this.timeline.line(now);
    const choices = field(data, 'choices');
    if (!Array.isArray(choices) || choices.length === 0) {
      throw new MalformedChunkError('malformed response: no "choices" in the chat completion body');
    }
    const content = field(field(choices[0], 'message'), 'content');
    this.generatedText = typeof content === 'string' ? content : '';
    this.timeline.arrival(now);
    this.adoptUsage(data);
  }

  override result(): ParsedResponse {
    const parsed = super.result();
    if (this.firstReasoningTtft !== undefined) {
      parsed.firstReasoningTtft = this.firstReasoningTtft;
      parsed.receivedToken = true;
    }
    return parsed;
  }
}

export const chatBackend: BackendAdapter = {
  sendsAuth: true,
  buildBody: (input, options) => ({ body: chatPayload(input, options), stream: !options.disableStream }),
  createParser: (input, st) => new ChatParser(st, input.outputLen),
};
