/**
 * `trt` → POST /v2/models/ensemble/generate_stream (spec §2.5). Always streams; every JSON line is
 * one arrival; the output length is the requested one. Sends no headers.
 */
import type { RequestInput } from '../types.js';
import { BaseResponseParser } from './parser-base.js';
import { MalformedChunkError, field } from './timeline.js';
import type { BackendAdapter, PayloadOptions } from './types.js';

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

/** The output length stays the requested one: TensorRT-LLM reports no token count. */
class TrtParser extends BaseResponseParser {
  onChunk(data: unknown, now: number): void {
    const text = field(data, 'text_output');
    if (typeof text !== 'string') throw new MalformedChunkError('malformed chunk: no "text_output" string');
    this.generatedText += text;
    this.timeline.arrival(now);
  }

  override onDone(): void {
    // TensorRT-LLM sends no [DONE]; tolerate one without counting it.
  }

  protected override latency(): number {
    return this.timeline.latencyToLastToken();
  }
}

export const trtBackend: BackendAdapter = {
  sendsAuth: false,
  buildBody: (input, options) => ({ body: trtPayload(input, options), stream: true }),
  createParser: (input, st) => new TrtParser(st, input.outputLen),
};
