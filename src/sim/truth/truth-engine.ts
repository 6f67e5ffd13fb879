/**
 * Truth mode's engine: no batching and no model, just exact schedules. A request's first chunk is
 * due `ttft` after its arrival and every later chunk `itl` after the previous one, each carrying
 * `tokensPerChunk` tokens (the last one the remainder). With shared steps every chunk falls on a
 * multiple of `itl`, the first on the first one at least `ttft` after arrival. Pure, like every Engine.
 */
import type { Engine, EngineStats, SimRequest, TokenEmission } from '../types.js';
import type { TruthOptions } from '../../deployment/index.js';
import { TimeHeap } from './time-heap.js';

interface TruthStream {
  request: SimRequest;
  emitted: number;
  verifyCount: number;
  /**
   * The next chunk is due at `origin + step * itl`, never a running sum: `origin` is the first
   * chunk's due time and `step` counts from 0, or with shared steps `origin` is 0 and `step` is
   * the shared clock's.
   */
  origin: number;
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

  function dueTime(stream: TruthStream): number {
    return stream.origin + stream.step * itl;
  }

  function emit(stream: TruthStream): TokenEmission {
    const { request } = stream;
    const tokens = Math.min(options.tokensPerChunk, request.outputTokens - stream.emitted);
    stream.emitted += tokens;
    stream.verifyCount += 1;
    totals.generated += tokens;
    const finished = stream.emitted >= request.outputTokens;
    return {
      requestId: request.id,
      time: dueTime(stream),
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
      const stream: TruthStream = options.sharedSteps
        ? { request, emitted: 0, verifyCount: 0, origin: 0, step: Math.ceil(firstDue / itl - 1e-9), aborted: false }
        : { request, emitted: 0, verifyCount: 0, origin: firstDue, step: 0, aborted: false };
      streams.set(request.id, stream);
      totals.prompt += request.promptTokens;
      due.push(dueTime(stream), stream);
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
          due.push(dueTime(stream), stream);
        }
      }
      return out;
    },
    flushCache() {
      return streams.size === 0;
    },
    stats(): EngineStats {
      return {
        dpRanks: [{ numRunning: streams.size, numWaiting: 0, kvUsage: 0 }],
        numRunning: streams.size,
        numWaiting: 0,
        kvUsage: 0,
        kvCapacityTokens: 0,
        avgSpecAcceptLength: null,
        promptTokensTotal: totals.prompt,
        generationTokensTotal: totals.generated,
        cachedTokensTotal: 0,
        requestsFinished: totals.finished,
        queueTimeSum: 0,
        queuedRequests: 0,
        stepCount: totals.steps,
      };
    },
  };
}
