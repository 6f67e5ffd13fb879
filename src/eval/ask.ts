/**
 * Sends every question through bench's request path (backend adapter, keep-alive transport,
 * stream parsers) and bench's dispatcher, at most `parallel` at a time in question order, as
 * SGLang's `run_batch` with `num_threads` does. Latency is the wall time of the whole batch, as
 * SGLang measures it. A stop signal (Ctrl-C, SIGTERM, SIGHUP) ends sending as it ends a bench
 * run: the questions answered by then are kept, the rest are left unasked.
 */
import { type BackendAdapter, type RunHeaders, dispatchSchedule, type InterruptWatch, sendRequest, nowSeconds, type HttpPool, type RequestOutput } from '../bench/index.js';
import type { EvalQuestion } from './types.js';

/** Seconds in-flight questions get to finish after a stop signal, as bench gives its requests. */
const INTERRUPT_GRACE_SECONDS = 5;

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
  /** The stop signals of the run (the caller keeps it until the answers are saved). */
  interrupts: InterruptWatch;
  notice(line: string): void;
  /** Called as each question's reply is complete. */
  onAnswered?: () => void;
}

export interface AskResult {
  /** The questions that were asked, in question order (all of them unless a stop signal came). */
  asked: EvalQuestion[];
  /** One output per asked question, in the same order. */
  outputs: RequestOutput[];
  /** Seconds from the first send to the last reply. */
  latency: number;
}

/** Asks the questions; never throws for a failed request (its output says why). */
export async function askQuestions(plan: AskPlan, questions: readonly EvalQuestion[]): Promise<AskResult> {
  const context = {
    pool: plan.pool,
    adapter: plan.adapter,
    headers: plan.headers,
    payloadOptions: { disableStream: false, disableIgnoreEos: true, returnLogprob: false, returnRoutedExperts: false },
    startAt: 'write' as const,
  };
  const schedule = questions.map((question, index) => ({
    // Unknown without the model's tokenizer; the catalog stores it as not measured.
    row: { prompt: question.prompt, promptLen: 0, outputLen: plan.maxNewTokens, textPromptLen: 0, visionPromptLen: 0, imageData: null, extraRequestBody: {} },
    index,
    sendAt: 0,
    loraName: null,
  }));
  const { start, sent } = await dispatchSchedule({
    schedule,
    maxConcurrency: plan.parallel,
    transfers: plan.pool,
    interrupts: plan.interrupts,
    graceSeconds: INTERRUPT_GRACE_SECONDS,
    onDone: () => plan.onAnswered?.(),
    notice: plan.notice,
    send: async (item, { queueTime }) => [
      await sendRequest(
        context,
        {
          prompt: item.row.prompt,
          apiUrl: plan.apiUrl,
          promptLen: 0,
          outputLen: plan.maxNewTokens,
          model: plan.model,
          loraName: null,
          imageData: null,
          extraRequestBody: plan.extraRequestBody,
        },
        queueTime,
      ),
    ],
  });
  return {
    asked: sent.map(({ index }) => questions[index]!),
    outputs: sent.map(({ outputs }) => outputs[0]!),
    latency: nowSeconds() - start,
  };
}
