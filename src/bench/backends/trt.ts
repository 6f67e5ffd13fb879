/**
 * `trt` → POST /v2/models/ensemble/generate_stream (spec §2.5). Always streams; every JSON line is
 * one arrival; the output length is the requested one. Sends no headers.
 */
import type { RequestInput } from '../types.js';
import { MalformedChunkError, TokenTimeline, field } from './timeline.js';
import type { BackendAdapter, ParsedResponse, PayloadOptions, ResponseParser } from './types.js';

/** The TensorRT-LLM payload; `--disable-ignore-eos` removes `min_length` and `end_id`. */
export function trtPayload(input: RequestInput, options: PayloadOptions): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    accumulate_tokens: true,
    text_input: input.prompt,
    temperature: 0.000001,
    top_p: 1.0,
    max_tokens: input.outputLen,
    stream: true,
    min_length: input.outputLen,
    end_id: 1048576,
    ...input.extraRequestBody,
  };
  if (options.disableIgnoreEos) {
    delete payload.min_length;
    delete payload.end_id;
  }
  return payload;
}

class TrtParser implements ResponseParser {
  private readonly timeline: TokenTimeline;
  private generatedText = '';

  constructor(
    st: number,
    private readonly requestedLen: number,
  ) {
    this.timeline = new TokenTimeline(st);
  }

  onChunk(data: unknown, now: number): void {
    const text = field(data, 'text_output');
    if (typeof text !== 'string') throw new MalformedChunkError('malformed chunk: no "text_output" string');
    this.generatedText += text;
    this.timeline.arrival(now);
  }

  onDone(): void {
    // TensorRT-LLM sends no [DONE]; tolerate one without counting it.
  }

  onBody(data: unknown, now: number): void {
    this.onChunk(data, now);
  }

  result(): ParsedResponse {
    return {
      generatedText: this.generatedText,
      ttft: this.timeline.ttft,
      itl: this.timeline.itl,
      textChunks: this.timeline.textChunks,
      outputLen: this.requestedLen,
      latency: this.timeline.latencyToLastToken(),
    };
  }
}

export const trtBackend: BackendAdapter = {
  sendsHeaders: false,
  buildBody: (input, options) => ({ body: trtPayload(input, options), stream: true }),
  createParser: (input, st) => new TrtParser(st, input.outputLen),
};
