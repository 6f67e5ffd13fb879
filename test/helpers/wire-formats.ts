/**
 * The response bytes of each backend family's wire format, as the real servers write them:
 * SGLang native /generate (cumulative text), OpenAI completions and chat (SSE), TensorRT-LLM
 * generate_stream (`data:` without a space), Truss (completions-shaped).
 */

export type WireFormat = 'native' | 'completions' | 'chat' | 'trt' | 'truss';

export interface TokenEvent {
  /** Native only: tokens the chunk's meta_info.completion_tokens reports beyond those sent (a server whose count disagrees with its text). */
  extraReportedTokens?: number;
  /** Index of this token among the request's output tokens. */
  index: number;
  text: string;
  /** Cumulative text so far (native sends it whole). */
  cumulative: string;
  /** Chat only: this token belongs to the reasoning phase. */
  reasoning: boolean;
}

const sse = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

/** Bytes sent right after the headers, before any token (chat's role chunk). */
export function streamPreamble(format: WireFormat, model: string): string {
  if (format !== 'chat') return '';
  return sse({ id: 'chatcmpl-test', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }], usage: null });
}

/** One token's chunk. */
export function tokenChunk(format: WireFormat, model: string, token: TokenEvent): string {
  switch (format) {
    case 'native':
      return sse({ text: token.cumulative, meta_info: { id: 'rid', completion_tokens: token.index + 1 + (token.extraReportedTokens ?? 0), finish_reason: null } });
    case 'completions':
    case 'truss':
      return sse({ id: 'cmpl-test', object: 'text_completion', model, choices: [{ index: 0, text: token.text, logprobs: null, finish_reason: null }], usage: null });
    case 'chat':
      return sse({
        id: 'chatcmpl-test',
        object: 'chat.completion.chunk',
        model,
        choices: [{ index: 0, delta: token.reasoning ? { reasoning_content: token.text } : { content: token.text }, finish_reason: null }],
        usage: null,
      });
    case 'trt':
      return `data:${JSON.stringify({ model_name: 'ensemble', model_version: '1', sequence_end: false, text_output: token.text })}\n\n`;
  }
}

/** Bytes after the last token. */
export function streamEpilogue(format: WireFormat, tokens: number): string {
  if (format === 'trt') return '';
  if (format === 'chat') {
    return sse({ id: 'chatcmpl-test', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 1, completion_tokens: tokens, total_tokens: tokens + 1 } }) + 'data: [DONE]\n\n';
  }
  return 'data: [DONE]\n\n';
}

/** The single JSON body of a non-stream response. */
export function nonStreamBody(format: WireFormat, model: string, text: string, tokens: number): string {
  switch (format) {
    case 'native':
      return JSON.stringify({ text, meta_info: { id: 'rid', completion_tokens: tokens } });
    case 'chat':
      return JSON.stringify({ id: 'chatcmpl-test', model, choices: [{ index: 0, message: { role: 'assistant', content: text } }], usage: { completion_tokens: tokens } });
    default:
      return JSON.stringify({ id: 'cmpl-test', model, choices: [{ index: 0, text }], usage: { completion_tokens: tokens } });
  }
}

/** Which format a request path speaks, or null for a non-generation path. */
export function formatOfPath(path: string): WireFormat | null {
  if (path.endsWith('/generate')) return 'native';
  if (path.endsWith('/v1/chat/completions')) return 'chat';
  if (path.endsWith('/v1/completions')) return 'completions';
  if (path.endsWith('/generate_stream')) return 'trt';
  if (path.endsWith('/v1/models/model:predict')) return 'truss';
  return null;
}

/** The requested output length in a payload of `format`. */
export function requestedTokens(format: WireFormat, body: Record<string, unknown>): number {
  if (format === 'native') return Number((body.sampling_params as Record<string, unknown>)?.max_new_tokens ?? 16);
  if (format === 'chat') return Number(body.max_completion_tokens ?? body.max_tokens ?? 16);
  return Number(body.max_tokens ?? 16);
}
