/**
 * Sends every question through bench's request path (backend adapter, keep-alive transport,
 * stream parsers), at most `parallel` at a time in question order, as SGLang's `run_batch` with
 * `num_threads` does. Latency is the wall time of the whole batch, as SGLang measures it.
 */
import type { BackendAdapter, RunHeaders } from '../bench/backends/index.js';
import { FifoSemaphore } from '../bench/runner/semaphore.js';
import { sendRequest } from '../bench/runner/send-request.js';
import { nowSeconds } from '../bench/transport/clock.js';
import type { HttpPool } from '../bench/transport/http-pool.js';
import type { RequestOutput } from '../bench/types.js';
import type { EvalQuestion } from './types.js';

export interface AskPlan {
  pool: HttpPool;
  adapter: BackendAdapter;
  headers: RunHeaders;
  apiUrl: string;
  /** The `model` field of every request. */
  model: string;
  maxNewTokens: number;
  /** The sampling settings in the backend's place (`samplingBody`). */
  extraRequestBody: Record<string, unknown>;
  parallel: number;
  /** Called as each question's reply is complete. */
  onAnswered?: () => void;
}

export interface AskResult {
  /** One output per question, in question order. */
  outputs: RequestOutput[];
  /** Seconds from the first send to the last reply. */
  latency: number;
}

/** Asks every question; never throws for a failed request (its output says why). */
export async function askQuestions(plan: AskPlan, questions: readonly EvalQuestion[]): Promise<AskResult> {
  const context = {
    pool: plan.pool,
    adapter: plan.adapter,
    headers: plan.headers,
    payloadOptions: { disableStream: false, disableIgnoreEos: true, returnLogprob: false, returnRoutedExperts: false },
  };
  const slots = new FifoSemaphore(plan.parallel);
  const started = nowSeconds();
  const outputs = await Promise.all(
    questions.map(async (question) => {
      const queuedAt = nowSeconds();
      await slots.acquire();
      try {
        const input = {
          prompt: question.prompt,
          apiUrl: plan.apiUrl,
          // Unknown without the model's tokenizer; the catalog stores it as not measured.
          promptLen: 0,
          outputLen: plan.maxNewTokens,
          model: plan.model,
          loraName: null,
          imageData: null,
          extraRequestBody: plan.extraRequestBody,
        };
        return await sendRequest(context, input, nowSeconds() - queuedAt);
      } finally {
        slots.release();
        plan.onAnswered?.();
      }
    }),
  );
  return { outputs, latency: nowSeconds() - started };
}
