/**
 * What every backend's response parser shares: the token timeline, the accumulated text, the output
 * length (the requested one until the server reports another), and the `result()` that assembles
 * them. Each parser adds only how it reads a chunk and where it departs from these defaults.
 */
import { readServerReport } from './server-report.js';
import { TokenTimeline, field, usageCompletionTokens } from './timeline.js';
import type { ParsedResponse, ResponseParser } from './types.js';

export abstract class BaseResponseParser implements ResponseParser {
  protected readonly timeline: TokenTimeline;
  protected generatedText = '';
  protected outputLen: number;
  /** The last `meta_info` and `usage` objects the response carried, read once in `result()`. */
  protected lastMetaInfo: unknown = undefined;
  private lastUsage: unknown = undefined;

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
    const server = readServerReport(this.lastMetaInfo, this.lastUsage);
    return {
      ...(server === undefined ? {} : { server }),
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
    const usage = field(data, 'usage');
    if (typeof usage === 'object' && usage !== null) this.lastUsage = usage;
    const tokens = usageCompletionTokens(data);
    if (tokens !== undefined) this.outputLen = tokens;
  }
}
