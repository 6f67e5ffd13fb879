/**
 * The contract every backend adapter fulfils: build one request (URL suffix, headers, JSON body)
 * and turn the response lines into bench_serving's per-request fields (spec §2).
 */
import type { RequestInput, ServerReport } from '../types.js';

/** Command-line switches that shape every payload (bench_serving reads them from its global args). */
export interface PayloadOptions {
  disableStream: boolean;
  disableIgnoreEos: boolean;
  returnLogprob: boolean;
  returnRoutedExperts: boolean;
}

/** What a response parse yields; the runner adds success, error and the request's own fields. */
export interface ParsedResponse {
  generatedText: string;
  ttft: number;
  itl: number[];
  textChunks: string[];
  outputLen: number;
  /** Seconds from send to the last line that counted for latency. */
  latency: number;
  /** Whether any token arrived (reasoning included): a 200 without one measured nothing. */
  receivedToken: boolean;
  /** Seconds from send to the first reasoning token (chat streams with `reasoning_content`). */
  firstReasoningTtft?: number;
  /** What the response said about itself (meta_info, usage). */
  server?: ServerReport;
}

/**
 * Incremental parser of one response. `onChunk` receives each JSON value of a stream (or the
 * whole body when not streaming) with its arrival time in run-clock seconds.
 */
export interface ResponseParser {
  onChunk(data: unknown, now: number): void;
  /** A line that counts for latency but carries no JSON (`[DONE]`). */
  onDone(now: number): void;
  /** The whole body of a non-stream response, parsed. */
  onBody(data: unknown, now: number): void;
  result(): ParsedResponse;
}

/** One backend family. */
export interface BackendAdapter {
  /** Whether requests carry the environment's auth and the routing key (trt's carry neither, as in bench_serving; `--header` goes on all). */
  readonly sendsAuth: boolean;
  /** The JSON payload (key order as the reference sends it) and whether the response streams. */
  buildBody(input: RequestInput, options: PayloadOptions): { body: Record<string, unknown>; stream: boolean };
  /** A fresh parser for one response; `st` is the send time in run-clock seconds. */
  createParser(input: RequestInput, st: number, stream: boolean): ResponseParser;
}
