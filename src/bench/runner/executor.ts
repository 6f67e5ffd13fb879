/**
 * Turns dataset rows into request inputs, prepares them before the run's clock starts and sends
 * them — one request, or a whole conversation in multi-turn mode — with the run's shared headers
 * and payload switches.
 */
import type { BackendName } from '../args/types.js';
import { backendAdapter, type RunHeaders } from '../backends/index.js';
import type { RequestOptions } from '../run-config.js';
import { nowSeconds } from '../transport/clock.js';
import type { HttpPool } from '../transport/http-pool.js';
import type { StartStamp } from '../transport/round-trip.js';
import type { DatasetRow, RequestInput, RequestOutput } from '../types.js';
import { runConversation } from './conversation.js';
import { prepareRequest, sendPrepared, type PreparedRequest, type Release, type SendContext } from './send-request.js';

/**
 * `Prepared` is what `prepare` hands back for `execute`: the request's bytes on this thread, a
 * ticket for the worker thread that holds them.
 */
export interface RequestExecutor<Prepared = unknown> {
  /** The request input of `row` with its LoRA adapter and merged extra body. */
  inputFor(row: DatasetRow, loraName: string | null, extraRequestBody: Record<string, unknown>): RequestInput;
  /** Builds `input`'s request now, before it is due (a conversation's turns are built as they go: each needs the last answer). */
  prepare(input: RequestInput): Prepared;
  /** Sends a prepared request (all its turns in multi-turn mode); the release's queue time is charged to the first request. */
  execute(prepared: Prepared, release: Release): Promise<RequestOutput[]>;
}

export interface ExecutorOptions {
  backend: BackendName;
  request: RequestOptions;
  pool: HttpPool;
  apiUrl: string;
  modelId: string;
  /** The environment's auth and `--header` entries. */
  headers: RunHeaders;
  multiTurn: boolean;
  /** What a request's start is: its bytes out, or (`--lazy-connect`) its own connection attempt. */
  startAt: StartStamp;
  /** Receives `--print-requests` lines. */
  print: (line: string) => void;
}

/** A request as this thread's executor holds it: its bytes, or a conversation's input. */
export type LocalPrepared = { kind: 'request'; request: PreparedRequest } | { kind: 'conversation'; input: RequestInput };

/** An executor for the run described by `options`, sending from this thread. */
export function createExecutor(options: ExecutorOptions): RequestExecutor<LocalPrepared> {
  const { request } = options;
  const context: SendContext = {
    pool: options.pool,
    adapter: backendAdapter(options.backend),
    headers: options.headers,
    payloadOptions: {
      disableStream: request.disableStream,
      disableIgnoreEos: request.disableIgnoreEos,
      returnLogprob: request.returnLogprob,
      returnRoutedExperts: request.returnRoutedExperts,
    },
    startAt: options.startAt,
  };
  if (request.printRequests) context.printRequests = options.print;

  return {
    inputFor(row, loraName, extraRequestBody) {
      const input: RequestInput = {
        prompt: row.prompt,
        apiUrl: options.apiUrl,
        promptLen: row.promptLen,
        outputLen: row.outputLen,
        model: options.modelId,
        loraName,
        imageData: row.imageData,
        extraRequestBody,
        textPromptLen: row.textPromptLen,
        visionPromptLen: row.visionPromptLen,
      };
      if (row.routingKey !== undefined) input.routingKey = row.routingKey;
      return input;
    },
    prepare(input) {
      return options.multiTurn ? { kind: 'conversation', input } : { kind: 'request', request: prepareRequest(context, input) };
    },
    async execute(prepared, release) {
      if (prepared.kind === 'request') return [await sendPrepared(context, prepared.request, release)];
      // The first turn goes out on the release; each later one is due when the answer before it is in.
      let firstTurn: Release | null = release;
      return runConversation(
        (turn) => {
          const turnRelease = firstTurn ?? { queueTime: 0, dueAt: nowSeconds() };
          firstTurn = null;
          return sendPrepared(context, prepareRequest(context, turn), turnRelease);
        },
        prepared.input,
        prepared.input.prompt as string[],
      );
    },
  };
}
