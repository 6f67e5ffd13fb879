/**
 * Sends one generation request through a backend adapter and the pooled transport, and returns
 * bench_serving's per-request record (spec §2.1) with servebench's extensions. Never throws for
 * a failed request: the failure is in `success`, `error` and `failureCause`.
 *
 * A request is prepared (payload, JSON, HTTP bytes) before it is due, so that sending it is one
 * write: in a burst, no request waits behind the serializing of the others.
 */
import { randomUUID } from 'node:crypto';
import { feedBody, feedLine, requestHeaders, type BackendAdapter, type PayloadOptions, type ResponseParser, type RunHeaders } from '../backends/index.js';
import { nowSeconds } from '../transport/clock.js';
import { exchange } from '../transport/exchange.js';
import type { HttpPool } from '../transport/http-pool.js';
import { toWire, type SendPhases, type StartStamp, type WireRequest } from '../transport/round-trip.js';
import type { RequestInput, RequestOutput } from '../types.js';
import { failureOf, type Failure } from './failure-cause.js';
import { requestEndLine, requestStartLine } from './print-requests.js';

export interface SendContext {
  pool: HttpPool;
  adapter: BackendAdapter;
  /** The run's auth and `--header` headers. */
  headers: RunHeaders;
  payloadOptions: PayloadOptions;
  /** What a request's start is (`--lazy-connect`: its own connection attempt; else its bytes out). */
  startAt: StartStamp;
  /** Receives the `--print-requests` lines; absent when the flag is off. */
  printRequests?: (line: string) => void;
}

/** A request ready to be written; `wire` is the error that will fail it when its URL or headers cannot be sent. */
export interface PreparedRequest {
  input: RequestInput;
  stream: boolean;
  wire: WireRequest | Error;
}

/** When the dispatcher let a request go. */
export interface Release {
  /** Seconds it waited for a `--max-concurrency` slot. */
  queueTime: number;
  /** Run-clock seconds it was due to leave: its scheduled time, or when its slot came free. */
  dueAt: number;
}

/** Builds `input`'s HTTP request now (nothing is sent). */
export function prepareRequest(context: SendContext, input: RequestInput): PreparedRequest {
  const { adapter } = context;
  const { body, stream } = adapter.buildBody(input, context.payloadOptions);
  const headers = adapter.sendsAuth
    ? requestHeaders(context.headers.withAuth, input.routingKey)
    : requestHeaders(context.headers.withoutAuth, undefined);
  let wire: WireRequest | Error;
  try {
    wire = toWire(context.pool, { method: 'POST', url: input.apiUrl, headers, body: JSON.stringify(body) });
  } catch (error) {
    wire = error as Error;
  }
  return { input, stream, wire };
}

/** Prepares and sends `input` at once (a conversation's later turns, eval's questions); due now. */
export function sendRequest(context: SendContext, input: RequestInput, queueTime = 0): Promise<RequestOutput> {
  return sendPrepared(context, prepareRequest(context, input), { queueTime, dueAt: nowSeconds() });
}

/** Sends a prepared request. */
export async function sendPrepared(context: SendContext, prepared: PreparedRequest, release: Release): Promise<RequestOutput> {
  const print = context.printRequests;
  if (!print) return send(context, prepared, release);
  const rid = randomUUID();
  const started = Date.now() / 1000;
  print(requestStartLine(rid, prepared.input, started));
  const output = await send(context, prepared, release);
  const ended = Date.now() / 1000;
  print(requestEndLine(rid, output, ended, ended - started));
  return output;
}

async function send(context: SendContext, prepared: PreparedRequest, release: Release): Promise<RequestOutput> {
  const { input, stream, wire } = prepared;
  // Until the bytes are out, the request's start is when it was due (a request that fails first reports that).
  let start = release.dueAt;
  let phases: SendPhases | undefined;
  let parser: ResponseParser | null = null;
  const onSent = (sent: { start: number; phases: SendPhases }): void => {
    ({ start, phases } = sent);
    parser = context.adapter.createParser(input, start, stream);
  };
  const timing = { dueAt: release.dueAt, startAt: context.startAt };
  const outcome =
    wire instanceof Error
      ? { ok: false as const, error: wire, resent: false, stampLatenessBound: null }
      : await exchange(
          context.pool,
          stream
            ? { wire, onSent, onLine: (line, now) => feedLine(parser!, line, now) }
            : { wire, onSent, onBody: (text, now) => feedBody(parser!, text, now) },
          timing,
        );
  // A request that never went out has nothing parsed: an empty parser's result.
  const parsed = (parser ?? context.adapter.createParser(input, start, stream)).result();
  // A 200 whose stream or body held no token would otherwise pass as a success with TTFT 0 and
  // the requested length credited (bench_serving's count).
  const failure: Failure | null = !outcome.ok
    ? failureOf(outcome.error)
    : parsed.receivedToken
      ? null
      : { cause: 'empty_response', message: 'empty response: HTTP 200 without a token' };
  const output: RequestOutput = {
    generatedText: failure === null ? parsed.generatedText : '',
    success: failure === null,
    latency: failure === null ? parsed.latency : 0,
    ttft: parsed.ttft,
    itl: parsed.itl,
    textChunks: parsed.textChunks,
    promptLen: input.promptLen,
    error: failure === null ? '' : failure.message,
    outputLen: failure === null ? parsed.outputLen : 0,
    startTime: start,
    queueTime: release.queueTime,
    failureCause: failure === null ? null : failure.cause,
  };
  if (outcome.resent) output.resent = true;
  if (parsed.firstReasoningTtft !== undefined) output.firstReasoningTtft = parsed.firstReasoningTtft;
  if (parsed.server !== undefined) output.server = parsed.server;
  if (input.textPromptLen !== undefined) output.textPromptLen = input.textPromptLen;
  if (input.visionPromptLen !== undefined) output.visionPromptLen = input.visionPromptLen;
  if (phases !== undefined) output.sendPhases = phases;
  if (outcome.stampLatenessBound !== null) output.stampLatenessBound = outcome.stampLatenessBound;
  return output;
}
