/**
 * Turns dataset rows into request inputs and sends them — one request, or a whole conversation
 * in multi-turn mode — with the run's shared headers and payload switches.
 */
import type { BenchArgs } from '../args/types.js';
import { backendAdapter } from '../backends/index.js';
import type { RunHeaders } from '../backends/index.js';
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
  args: BenchArgs;
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
  const { args } = options;
  const context: SendContext = {
    pool: options.pool,
    adapter: backendAdapter(args.backend),
    headers: options.headers,
    payloadOptions: {
      disableStream: args.disable_stream,
      disableIgnoreEos: args.disable_ignore_eos,
      returnLogprob: args.return_logprob,
      returnRoutedExperts: args.return_routed_experts,
    },
  };
  if (args.print_requests) context.printRequests = options.print;

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
