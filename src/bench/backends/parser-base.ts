/**
 * What every backend's response parser shares: the token timeline, the accumulated text, the output
 * length (the requested one until the server reports another), and the `result()` that assembles
 * them. Each parser adds only how it reads a chunk and where it departs from these defaults.
 */
import { TokenTimeline, usageCompletionTokens } from './timeline.js';
import type { ParsedResponse, ResponseParser } from './types.js';

export abstract class BaseResponseParser implements ResponseParser {
  protected readonly timeline: TokenTimeline;
  protected generatedText = '';
  protected outputLen: number;

  constructor(st: number, requestedLen: number) {
    this.timeline = new TokenTimeline(st);
    this.outputLen = requestedLen;
  }

  abstract onChunk(data: unknown, now: number): void;

  /** `[DONE]` carries no token but extends the latency. */
  onDone(now: number): void {
    this.timeline.line(now);
  }

  /** A non-stream body reads like one chunk unless the backend's body has another shape. */
  onBody(data: unknown, now: number): void {
    this.onChunk(data, now);
  }

  result(): ParsedResponse {
    return {
      generatedText: this.generatedText,
      ttft: this.timeline.ttft,
      itl: this.timeline.itl,
      textChunks: this.timeline.textChunks,
      outputLen: this.outputLen,
      latency: this.latency(),
      receivedToken: this.timeline.hasToken,
    };
  }

  /** Latency as the reference computes it for most backends: up to the last counted line. */
  protected latency(): number {
    return this.timeline.latency();
  }

  /** Takes `usage.completion_tokens` as the output length when the chunk reports it (OpenAI backends). */
  protected adoptUsage(data: unknown): void {
    const tokens = usageCompletionTokens(data);
    if (tokens !== undefined) this.outputLen = tokens;
  }
}
