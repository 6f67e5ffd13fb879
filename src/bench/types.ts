/**
 * The data contracts of the bench pipeline:
 * args → dataset rows → schedule → backend adapter → request outputs → metrics → block / JSONL.
 * Field names of the records mirror bench_serving's Python objects (spec §2.1, §3) in camelCase.
 */
import type { SendPhases } from './transport/round-trip.js';

/** One OpenAI-style chat message, passed through verbatim to chat backends. */
export interface ChatMessage {
  role: string;
  content: string | ChatContentPart[] | null;
  [key: string]: unknown;
}

export type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

/**
 * A prompt is plain text, token ids (`--tokenize-prompt`), a list of turn strings
 * (multi-turn generated-shared-prefix) or a list of chat messages (openai dataset).
 */
export type Prompt = string | number[] | string[] | ChatMessage[];

/** bench_serving's DatasetRow (spec §3). */
export interface DatasetRow {
  prompt: Prompt;
  promptLen: number;
  outputLen: number;
  textPromptLen: number;
  visionPromptLen: number;
  /** data: URIs of the row's images, or null. */
  imageData: string[] | null;
  /** Seconds after replay start at which the row is released (mooncake trace replay). */
  timestamp?: number;
  routingKey?: string;
  /** Per-row extra request body (openai dataset); wins over the global `--extra-request-body`. */
  extraRequestBody: Record<string, unknown>;
}

/** A dataset as built, plus the console lines its builder printed (bench_serving prints them as it goes). */
export interface Dataset {
  rows: DatasetRow[];
  /** The row used for warmup (mooncake has its own; otherwise rows[0]). */
  warmupRow?: DatasetRow;
  /** True when rows are multi-turn conversations (prompt is string[]). */
  multiTurn: boolean;
}

/**
 * Why a request failed; `null` for a success. Counted per cause in the extended report. A non-200
 * status counts by class: a server shedding load (429) is a different finding from one failing (5xx).
 */
export type FailureCause =
  | 'http_429'
  | 'http_4xx'
  | 'http_5xx'
  /** Any other non-200 status (1xx, 2xx, 3xx). */
  | 'http_other'
  /** A 200 with no body, or whose body carried no token: not a completion to measure. */
  | 'empty_response'
  | 'connection'
  | 'reset'
  | 'malformed_chunk'
  | 'stalled'
  | 'timeout'
  | 'aborted'
  | 'other';

/**
 * bench_serving's RequestFuncOutput (spec §2.1) plus servebench's extensions.
 * Times are seconds. `startTime` is on the run's monotonic clock (seconds), 0 when never set: the
 * instant the request's bytes went out (with `--lazy-connect`, its own connection attempt), which
 * TTFT and latency count from.
 */
export interface RequestOutput {
  generatedText: string;
  success: boolean;
  latency: number;
  ttft: number;
  itl: number[];
  textChunks: string[];
  promptLen: number;
  error: string;
  outputLen: number;
  startTime: number;
  /** Extension: seconds from send to the first `reasoning_content` token, when the stream had one. */
  firstReasoningTtft?: number;
  /** Extension: seconds spent waiting for a `--max-concurrency` slot before sending. */
  queueTime: number;
  /** Extension: failure cause, null on success. */
  failureCause: FailureCause | null;
  /**
   * Extension: true when the request went out a second time because the server closed the
   * reused keep-alive connection without answering (the server may have seen both); absent otherwise.
   */
  resent?: boolean;
  /** Text/vision split of promptLen, copied from the dataset row. */
  textPromptLen?: number;
  visionPromptLen?: number;
  /** Extension: where the time between the request being due and its start went; absent when it never went out. */
  sendPhases?: SendPhases;
  /**
   * Extension: the most by which any of its reads (first token, chunks, end) may have been stamped
   * late, from the stamping thread's heartbeat (selfcheck/heartbeat.ts); absent outside the
   * self-check's window.
   */
  stampLatenessBound?: number;
  /** Extension: what the response said about itself; absent when it said nothing (or the request failed before it did). */
  server?: ServerReport;
}


/**
 * What the server said about one request in its response (SGLang's `meta_info`, the OpenAI `usage`
 * object); a field it did not report is absent. Times are the server's seconds, never rescaled.
 */
export interface ServerReport {
  promptTokens?: number;
  completionTokens?: number;
  /** Prompt tokens served from its prefix cache. */
  cachedTokens?: number;
  /** Verify passes under speculative decoding (`spec_verify_ct`). */
  specVerifyCount?: number;
  /** Its end-to-end latency (`e2e_latency`). */
  e2eLatency?: number;
  /** Its time in the scheduler's waiting queue (`queue_time`). */
  queueTime?: number;
}

/** Everything a request function needs to send one request (bench_serving's RequestFuncInput). */
export interface RequestInput {
  prompt: Prompt;
  apiUrl: string;
  promptLen: number;
  outputLen: number;
  model: string;
  loraName: string | null;
  imageData: string[] | null;
  extraRequestBody: Record<string, unknown>;
  routingKey?: string;
  textPromptLen?: number;
  visionPromptLen?: number;
}
