/**
 * Sends one generation request through a backend adapter and the pooled transport, and returns
 * bench_serving's per-request record (spec §2.1) with servebench's extensions. Never throws for
 * a failed request: the failure is in `success`, `error` and `failureCause`.
 */
import { randomUUID } from 'node:crypto';
import { feedBody, feedLine, requestHeaders } from '../backends/index.js';
import type { BackendAdapter, PayloadOptions, RunHeaders } from '../backends/index.js';
import { nowSeconds } from '../transport/clock.js';
import { exchange } from '../transport/exchange.js';
import type { HttpPool } from '../transport/http-pool.js';
import type { RequestInput, RequestOutput } from '../types.js';
import { failureOf, type Failure } from './failure-cause.js';
import { requestEndLine, requestStartLine } from './print-requests.js';

export interface SendContext {
  pool: HttpPool;
  adapter: BackendAdapter;
  /** The run's auth and `--header` headers. */
  headers: RunHeaders;
  payloadOptions: PayloadOptions;
  /** Receives the `--print-requests` lines; absent when the flag is off. */
  printRequests?: (line: string) => void;
}

/** Sends `input`; `queueTime` is the seconds it waited for a concurrency slot before this call. */
export async function sendRequest(context: SendContext, input: RequestInput, queueTime = 0): Promise<RequestOutput> {
  const print = context.printRequests;
  if (!print) return send(context, input, queueTime);
  const rid = randomUUID();
  const started = Date.now() / 1000;
  print(requestStartLine(rid, input, started));
  const output = await send(context, input, queueTime);
  const ended = Date.now() / 1000;
  print(requestEndLine(rid, output, ended, ended - started));
  return output;
}

async function send(context: SendContext, input: RequestInput, queueTime: number): Promise<RequestOutput> {
  const { adapter } = context;
  const { body, stream } = adapter.buildBody(input, context.payloadOptions);
  const headers = adapter.sendsAuth
    ? requestHeaders(context.headers.withAuth, input.routingKey)
    : requestHeaders(context.headers.withoutAuth, undefined);
  const json = JSON.stringify(body);
  const st = nowSeconds();
  const parser = adapter.createParser(input, st, stream);
  const outcome = await exchange(
    context.pool,
    stream
      ? { url: input.apiUrl, headers, body: json, onLine: (line, now) => feedLine(parser, line, now) }
      : { url: input.apiUrl, headers, body: json, onBody: (text, now) => feedBody(parser, text, now) },
    st,
  );
  const parsed = parser.result();
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
    startTime: st,
    queueTime,
    failureCause: failure === null ? null : failure.cause,
  };
  if (outcome.resent) output.resent = true;
  if (parsed.firstReasoningTtft !== undefined) output.firstReasoningTtft = parsed.firstReasoningTtft;
  if (input.textPromptLen !== undefined) output.textPromptLen = input.textPromptLen;
  if (input.visionPromptLen !== undefined) output.visionPromptLen = input.visionPromptLen;
  return output;
}
