/**
 * Everything a route needs to serve a generation, and the one place that runs it: the answer
 * plan goes to the engine through the driver, emissions come back through a sink that writes them
 * (stream) or collects them (one JSON body), and a client that leaves early frees its slot at once.
 */
import type { ServerResponse } from 'node:http';
import type { VisionConfig, LaunchConfig } from '../../deployment/index.js';
import type { ResolvedInstance } from '../model/resolve-instance.js';
import type { TokenEmission } from '../types.js';
import type { OutputPlan } from '../text/output-plan.js';
import type { TokenPool } from '../text/token-pool.js';
import type { TruthRecorder } from '../truth/truth-recorder.js';
import type { PdRole } from './disaggregation/pd-role.js';
import type { EngineDriver } from './engine-driver.js';
import { HttpError } from '../../core/http-error.js';
import { EventStream, sendJson } from './http-io.js';
import type { PromptLimits } from './prompt-tokens.js';
import type { LoggedOutput, LoggedRequest } from './request-log-format.js';
import type { ServerLog } from './server-log.js';
import type { SimMetrics } from './sim-metrics.js';
import { nativeFinishReason } from './wire-format.js';

export interface SimContext extends PromptLimits {
  launch: LaunchConfig;
  /** What the launch resolves to; null in truth mode with a model the catalog does not know. */
  deployment: ResolvedInstance | null;
  /** A vision-language model's vision tower and its image pad token's id; null for a text-only model. */
  vision: { config: VisionConfig; padId: number } | null;
  /** The name clients send as `model` (`--served-model-name`, else the model path). */
  modelName: string;
  pool: TokenPool;
  driver: EngineDriver;
  metrics: SimMetrics;
  truth: TruthRecorder | null;
  /** The server's log (`servebench sim` only); null in the embedded sim. */
  log: ServerLog | null;
  /** Index of the next request: the stream of its seeded draws. */
  nextRequestIndex(): number;
  /** The instance's part in PD disaggregation (`--disaggregation-mode`); null for a whole server. */
  pd: PdRole | null;
}

/** One generation ready to run. */
export interface GenerationJob {
  id: string;
  /** Engine-clock seconds when the request arrived. */
  arrival: number;
  promptIds: ArrayLike<number>;
  plan: OutputPlan;
  /** The request as `--log-requests` prints it; absent when request lines are off. */
  logged?: LoggedRequest;
  /** PD decode instance: engine time its KV arrives (SimRequest.kvArrivalTime). */
  kvArrivalTime?: number;
  /**
   * PD prefill instance: given the write of the finished answer, which it makes once the KV has
   * been sent (SGLang's prefill answers when its transfer succeeds).
   */
  settle?: (write: () => void) => void;
}

/** Turns emissions into bytes, per API. */
export interface AnswerWriter {
  /** SSE text for one emission of a streaming request. */
  event(emission: TokenEmission, elapsedSec: number): string;
  /** Accumulates one emission of a non-streaming request. */
  collect(emission: TokenEmission): void;
  /** The whole JSON body of a non-streaming request after its last emission. */
  body(last: TokenEmission, elapsedSec: number): string;
}

/**
 * A zero-token answer (max_new_tokens 0) still passes through the engine as one token so its
 * timing includes the prefill; the client sees 0 tokens.
 */
function visibleEmission(emission: TokenEmission, plan: OutputPlan): TokenEmission {
  if (plan.tokens > 0) return emission;
  return { ...emission, tokens: 0, completionTokens: 0 };
}

/** The answer as SGLang's `Finish` line prints it (its native output). */
function loggedOutput(job: GenerationJob, last: TokenEmission, elapsedSec: number): LoggedOutput {
  const { plan } = job;
  return {
    text: plan.pieces.slice(0, last.completionTokens).join(''),
    outputIds: plan.ids.slice(0, last.completionTokens),
    metaInfo: {
      id: job.id,
      finish_reason: nativeFinishReason(last, plan.matchedStop),
      prompt_tokens: job.promptIds.length,
      completion_tokens: last.completionTokens,
      cached_tokens: last.cachedTokens,
      e2e_latency: elapsedSec,
    },
  };
}

/**
 * Where one generation's answer goes: a response of its own, or its prompt's share of a batch's
 * (batch-answer.ts). A stream writes SSE text as it comes; otherwise `end` gets the one JSON body.
 */
export type AnswerOutput =
  | { stream: true; write(text: string): void; end(text: string): void; onGone(listener: () => void): void }
  | { stream: false; end(body: string): void; onGone(listener: () => void): void };

/** `res` as one generation's output; null when its client already left (nothing to run then). */
function responseOutput(res: ServerResponse, stream: boolean): AnswerOutput | null {
  if (res.socket === null || res.socket.destroyed) return null;
  const onGone = (listener: () => void): void => void res.on('close', listener);
  if (!stream) return { stream, end: (body) => sendJson(res, 200, body), onGone };
  const events = new EventStream(res);
  return { stream, write: (text) => events.write(text), end: (text) => events.end(text), onGone };
}

/** A decode instance runs only what a PD router sends: the KV comes from its prefill. */
export function checkRunnable(ctx: SimContext, job: GenerationJob): void {
  if (ctx.pd?.mode === 'decode' && job.kvArrivalTime === undefined) {
    throw new HttpError(400, 'this is a decode instance (--disaggregation-mode decode): it serves what a PD router sends, with bootstrap_host and bootstrap_room');
  }
}

/** Runs `job` on the engine and answers `res` as a stream or as one JSON body. */
export function runGeneration(
  ctx: SimContext,
  res: ServerResponse,
  job: GenerationJob,
  writer: AnswerWriter,
  stream: boolean,
): void {
  checkRunnable(ctx, job);
  // The client may have left while its body was read and tokenized: then there is nothing to run.
  const output = responseOutput(res, stream);
  if (output !== null) runGenerationTo(ctx, output, job, writer);
}

/** Runs `job` on the engine, its answer going to `output`. */
export function runGenerationTo(ctx: SimContext, output: AnswerOutput, job: GenerationJob, writer: AnswerWriter): void {
  let finished = false;
  const settle = job.settle ?? ((write: () => void) => write());
  /** SSE text of emissions due together with later ones of this request, written with the last. */
  let held = '';
  const sink = {
    deliver(raw: TokenEmission, more: boolean): void {
      const emission = visibleEmission(raw, job.plan);
      const elapsed = ctx.driver.clock.now() - job.arrival;
      if (emission.finished) {
        finished = true;
        if (job.logged !== undefined) ctx.log?.finished(job.logged, loggedOutput(job, emission, elapsed));
      }
      if (output.stream) {
        const text = held + writer.event(emission, elapsed);
        held = more ? text : '';
        if (more) return;
        if (emission.finished) settle(() => output.end(text));
        else output.write(text);
      } else {
        writer.collect(emission);
        if (emission.finished) {
          const body = writer.body(emission, elapsed);
          settle(() => output.end(body));
        }
      }
    },
  };
  const onGone = (): void => {
    if (finished) return;
    finished = true;
    ctx.driver.abort(job.id);
    ctx.metrics.abort(job.id);
  };
  output.onGone(onGone);
  if (job.logged !== undefined) ctx.log?.received(job.logged);
  ctx.metrics.begin(job.id, job.arrival);
  ctx.truth?.begin(job.id, ctx.driver.clock.toHrMs(job.arrival), ctx.driver.clock.hrNowMs());
  ctx.driver.submit(
    {
      id: job.id,
      promptTokens: job.promptIds.length,
      promptTokenIds: job.promptIds,
      outputTokens: Math.max(1, job.plan.tokens),
      finishReason: job.plan.finishReason,
      arrivalTime: job.arrival,
      ...(job.kvArrivalTime === undefined ? {} : { kvArrivalTime: job.kvArrivalTime }),
    },
    sink,
  );
}
