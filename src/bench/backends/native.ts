/**
 * `sglang` / `sglang-native` → POST /generate (spec §2.2). The stream carries the cumulative text
 * and `meta_info.completion_tokens`; a chunk carrying k new tokens splits its gap into k ITL entries.
 */
import type { RequestInput } from '../types.js';
import { BaseResponseParser } from './parser-base.js';
import { MalformedChunkError, field } from './timeline.js';
import type { BackendAdapter, PayloadOptions } from './types.js';

/** The /generate payload, keys in the reference's order; the extra body is spread at the top level (Q25). */
export function nativePayload(input: RequestInput, options: PayloadOptions): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    [typeof input.prompt === 'string' ? 'text' : 'input_ids']: input.prompt,
    sampling_params: {
      temperature: 0.0,
      max_new_tokens: input.outputLen,
      ignore_eos: !options.disableIgnoreEos,
    },
    stream: !options.disableStream,
    lora_path: input.loraName,
    return_logprob: options.returnLogprob,
    return_routed_experts: options.returnRoutedExperts,
    logprob_start_len: -1,
    ...input.extraRequestBody,
  };
  if (input.imageData && input.imageData.length > 0) payload.image_data = input.imageData;
  return payload;
}

class NativeParser extends BaseResponseParser {
  private lastCompletionTokens = 0;

  onChunk(data: unknown, now: number): void {
    this.timeline.line(now);
    const metaInfo = field(data, 'meta_info');
    if (metaInfo !== undefined) this.lastMetaInfo = metaInfo;
    const text = field(data, 'text');
    if (typeof text !== 'string' || text === '') return;
    const completionTokens = field(metaInfo, 'completion_tokens');
    if (typeof completionTokens !== 'number') {
      throw new MalformedChunkError('malformed chunk: /generate chunk without meta_info.completion_tokens');
    }
    this.generatedText = text;
    this.outputLen = completionTokens;
    if (this.timeline.hasToken) {
      const newTokens = completionTokens - this.lastCompletionTokens;
      // A chunk without new tokens leaves both the clock and the counter where they were.
      if (newTokens === 0) return;
      this.timeline.arrival(now, Math.max(newTokens, 0));
    } else {
      this.timeline.arrival(now);
    }
    this.lastCompletionTokens = completionTokens;
  }
}

export const nativeBackend: BackendAdapter = {
  sendsAuth: true,
  buildBody: (input, options) => ({ body: nativePayload(input, options), stream: !options.disableStream }),
  createParser: (input, st) => new NativeParser(st, input.outputLen),
};
