/**
 * Truth mode's engine: no batching and no model, just exact schedules. A request's first chunk is
 * due `ttft` after its arrival and every later chunk `itl` after the previous one, each carrying
 * `tokensPerChunk` tokens (the last one the remainder). With shared steps every chunk falls on a
 * multiple of `itl`, the first on the first one at least `ttft` after arrival. Pure, like every Engine.
 */
import type { Engine, EngineStats, SimRequest, TokenEmission } from '../types.js';
import type { TruthOptions } from '../flags/launch-flags.js';
import { TimeHeap } from './time-heap.js';

interface TruthStream {
  request: SimRequest;
  emitted: number;
  verifyCount: number;
  /** Due time of the next chunk. */
  next: number;
  /** With shared steps, the step of the next chunk: `next` is `step * itl`, never a running sum. */
  step: number;
  aborted: boolean;
}

/** Creates an Engine whose every emission time is fixed by the truth options. */
export function createTruthEngine(options: TruthOptions): Engine {
  const ttft = options.ttftMs / 1000;
  const itl = options.itlMs / 1000;
  const streams = new Map<string, TruthStream>();
  const due = new TimeHeap<TruthStream>();
  const totals = { prompt: 0, generated: 0, finished: 0, steps: 0 };

  function emit(stream: TruthStream): TokenEmission {
    const { request } = stream;
    const tokens = Math.min(options.tokensPerChunk, request.outputTokens - stream.emitted);
    stream.emitted += tokens;
    stream.verifyCount += 1;
    totals.generated += tokens;
    const finished = stream.emitted >= request.outputTokens;
    return {
      requestId: request.id,
      time: stream.next,
      tokens,
      completionTokens: stream.emitted,
      cachedTokens: 0,
      specVerifyCount: options.tokensPerChunk > 1 ? stream.verifyCount : 0,
      finished,
      finishReason: finished ? request.finishReason : null,
    };
  }

  /** Aborted streams stay in the heap until they surface; drop them there. */
  function dropAbortedHead(): void {
    while (due.size > 0 && due.peekFirst()!.aborted) due.pop();
  }

  return {
    submit(request) {
      const firstDue = request.arrivalTime + ttft;
      // The tolerance keeps a due time that is a step up to rounding on that step.
      const step = options.sharedSteps ? Math.ceil(firstDue / itl - 1e-9) : 0;
      const next = options.sharedSteps ? step * itl : firstDue;
      const stream: TruthStream = { request, emitted: 0, verifyCount: 0, next, step, aborted: false };
      streams.set(request.id, stream);
      totals.prompt += request.promptTokens;
      due.push(stream.next, stream);
    },
    abort(requestId) {
      const stream = streams.get(requestId);
      if (!stream) return;
      stream.aborted = true;
      streams.delete(requestId);
    },
    nextEventTime() {
      dropAbortedHead();
      return due.peekTime();
    },
    advanceTo(until) {
      const out: TokenEmission[] = [];
      while (due.size > 0 && due.peekTime()! <= until) {
        const stream = due.pop()!;
        if (stream.aborted) continue;
        const emission = emit(stream);
        out.push(emission);
        totals.steps += 1;
        if (emission.finished) {
          streams.delete(stream.request.id);
          totals.finished += 1;
        } else {
          stream.step += 1;
          stream.next = options.sharedSteps ? stream.step * itl : stream.next + itl;
          due.push(stream.next, stream);
        }
      }
      return out;
    },
    flushCache() {
      return streams.size === 0;
    },
    stats(): EngineStats {
      return {
        numRunning: streams.size,
        numWaiting: 0,
        kvUsage: 0,
        kvCapacityTokens: 0,
        avgSpecAcceptLength: null,
        promptTokensTotal: totals.prompt,
        generationTokensTotal: totals.generated,
        cachedTokensTotal: 0,
        requestsFinished: totals.finished,
        stepCount: totals.steps,
      };
    },
  };
}
