/**
 * Turns dataset rows into request inputs and sends them — one request, or a whole conversation
 * in multi-turn mode — with the run's shared headers and payload switches.
 */
import type { BackendName } from '../args/types.js';
import { backendAdapter } from '../backends/index.js';
import type { RunHeaders } from '../backends/index.js';
import type { RequestOptions } from '../run-config.js';
import type { HttpPool } from '../transport/http-pool.js';
import type { DatasetRow, RequestInput, RequestOutput } from '../types.js';
import { runConversation } from './conversation.js';
import { sendRequest } from './send-request.js';
import type { SendContext } from './send-request.js';

export interface RequestExecutor {
  /** The request input of `row` with its LoRA adapter and merged extra body. */
  inputFor(row: DatasetRow, loraName: string | null, extraRequestBody: Record<string, unknown>): RequestInput;
  /** Sends `input` (all its turns in multi-turn mode); `queueTime` is charged to the first request. */
  execute(input: RequestInput, queueTime: number): Promise<RequestOutput[]>;
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
  /** Receives `--print-requests` lines. */
  print: (line: string) => void;
}

/** An executor for the run described by `options`. */
export function createExecutor(options: ExecutorOptions): RequestExecutor {
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
    async execute(input, queueTime) {
      if (!options.multiTurn) return [await sendRequest(context, input, queueTime)];
      let wait = queueTime;
      return runConversation(
        (turn) => {
          const output = sendRequest(context, turn, wait);
          wait = 0;
          return output;
        },
        input,
        input.prompt as string[],
      );
    },
  };
}
