/**
 * Token-arrival bookkeeping shared by the stream parsers: the first arrival sets TTFT, each later
 * one appends its gap to ITL (and, where the reference does, its text to `textChunks`).
 */
import { ServebenchError } from '../../core/errors.js';

export class TokenTimeline {
  ttft = 0;
  readonly itl: number[] = [];
  readonly textChunks: string[] = [];
  private seenToken = false;
  private lastTokenTime: number;
  /** Time of the last line that counts for latency. */
  lastLineTime: number;

  constructor(readonly st: number) {
    this.lastTokenTime = st;
    this.lastLineTime = st;
  }

  get hasToken(): boolean {
    return this.seenToken;
  }

  /** A line arrived (token-bearing or not): it extends the latency. */
  line(now: number): void {
    this.lastLineTime = now;
  }

  /**
   * A token-bearing chunk arrived at `now`. `tokens` > 1 splits the gap evenly (native multi-token
   * chunks); `chunkText` is recorded for decode chunks when given (OpenAI backends).
   */
  arrival(now: number, tokens = 1, chunkText?: string): void {
    if (!this.seenToken) {
      this.seenToken = true;
      this.ttft = now - this.st;
    } else {
      const gap = (now - this.lastTokenTime) / tokens;
      for (let i = 0; i < tokens; i++) this.itl.push(gap);
      if (chunkText !== undefined) this.textChunks.push(chunkText);
    }
    this.lastTokenTime = now;
  }

  /** Latency as the reference computes it: the last counted line's time minus send time. */
  latency(): number {
    return this.lastLineTime - this.st;
  }

  /** Latency ending at the last token (trt). */
  latencyToLastToken(): number {
    return this.lastTokenTime - this.st;
  }
}

/** Reads `obj[key]` when `obj` is a plain object, else undefined. */
export function field(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && !Array.isArray(obj)
    ? (obj as Record<string, unknown>)[key]
    : undefined;
}

/** `usage.completion_tokens` of a chunk when usage is a non-null object carrying it. */
export function usageCompletionTokens(chunk: unknown): number | undefined {
  const value = field(field(chunk, 'usage'), 'completion_tokens');
  return typeof value === 'number' ? value : undefined;
}

/** Thrown by a parser for a chunk whose shape the backend cannot read; the request fails as `malformed_chunk`. */
export class MalformedChunkError extends ServebenchError {
  readonly code = 'E_MALFORMED_CHUNK';
}
