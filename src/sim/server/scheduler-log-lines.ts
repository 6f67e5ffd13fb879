/**
 * The figures of SGLang's scheduler log lines, from the engine's rank steps. Pure: engine time in,
 * line data out (sglang-log-format.ts writes the text).
 *
 * As SGLang's scheduler (scheduler_metrics_mixin.py) counts them, per scheduler rank:
 * - a `Prefill batch` line for every batch with an extend part; its input throughput is the
 *   previous prefill batch's new tokens over the time since that batch's line (0 for the first);
 * - a `Decode batch` line every `--decode-log-interval` decode batches; its gen throughput is the
 *   tokens decoded since the previous decode line over the time since it, and under speculative
 *   decoding the accept length and rate of the verify passes since it.
 * Every rank starts its clocks when the server starts (engine time 0).
 */
import type { RankStep } from '../engine/rank-step.js';

/** Where a scheduler rank sits, as SGLang's log prefix names it (`DP1 TP4 EP4`); null parts are not printed. */
export interface RankTag {
  dp: number | null;
  tp: number | null;
  ep: number | null;
}

export interface PrefillLine {
  kind: 'prefill';
  tag: RankTag;
  newSeqs: number;
  newTokens: number;
  cachedTokens: number;
  tokenUsage: number;
  runningReqs: number;
  queueReqs: number;
  inputThroughput: number;
  cudaGraph: boolean;
}

export interface DecodeLine {
  kind: 'decode';
  tag: RankTag;
  runningReqs: number;
  tokens: number;
  tokenUsage: number;
  /** Speculative decoding only: accepted tokens per verify pass, and their share of the draft tokens verified. */
  accept: { length: number; rate: number } | null;
  cudaGraph: boolean;
  genThroughput: number;
  queueReqs: number;
}

export type SchedulerLine = PrefillLine | DecodeLine;

/** The parallel layout the tags are made from (a ResolvedInstance has these fields). */
export interface SchedulerShape {
  tp: number;
  ep: number;
  /** DP-attention ranks of one instance (1 without DP attention). */
  attentionDp: number;
  /** Independent replicas (`--dp` without DP attention). */
  replicas: number;
  /** Tokens verified per request per speculative pass; null without speculative decoding. */
  draftTokens: number | null;
}

/**
 * SGLang's prefix of a scheduler process: `DP` when there are several data-parallel schedulers,
 * `TP` (of the rank's first device, the one that logs) when TP > 1, `EP` (that device's expert
 * rank) when EP > 1.
 */
export function rankTag(shape: SchedulerShape, instance: number, rank: number): RankTag {
  const attentionTp = shape.tp / shape.attentionDp;
  const tpRank = rank * attentionTp;
  const dp = shape.attentionDp > 1 ? rank : shape.replicas > 1 ? instance : null;
  return {
    dp,
    tp: shape.tp > 1 ? tpRank : null,
    ep: shape.ep > 1 ? Math.floor(tpRank / (shape.tp / shape.ep)) : null,
  };
}

interface RankCounters {
  lastPrefillTime: number;
  /** New tokens of the rank's previous prefill batch. */
  lastPrefillTokens: number;
  decodeBatches: number;
  lastDecodeTime: number;
  /** Tokens decoded since the last decode line. */
  decoded: number;
  /** Verify passes and the tokens they yielded since the last decode line. */
  verifies: number;
  verifiedTokens: number;
}

/** Turns rank steps into the scheduler lines SGLang would print for them. */
export class SchedulerLog {
  private readonly ranks = new Map<string, RankCounters>();

  constructor(
    private readonly shape: SchedulerShape,
    private readonly decodeLogInterval: number,
  ) {}

  /** The lines one rank step prints: its prefill line, its decode line when one is due, or none. */
  observe(step: RankStep): SchedulerLine[] {
    const key = `${step.instance}/${step.rank}`;
    let counters = this.ranks.get(key);
    if (counters === undefined) {
      counters = { lastPrefillTime: 0, lastPrefillTokens: 0, decodeBatches: 0, lastDecodeTime: 0, decoded: 0, verifies: 0, verifiedTokens: 0 };
      this.ranks.set(key, counters);
    }
    const tag = rankTag(this.shape, step.instance, step.rank);
    const lines: SchedulerLine[] = [];
    const { prefill, decode } = step;
    if (prefill !== null) {
      const gap = step.time - counters.lastPrefillTime;
      lines.push({
        kind: 'prefill',
        tag,
        newSeqs: prefill.requests,
        newTokens: prefill.newTokens,
        cachedTokens: prefill.cachedTokens,
        tokenUsage: prefill.kvTokens / step.kvCapacity,
        runningReqs: prefill.running,
        queueReqs: prefill.queued,
        inputThroughput: gap > 0 ? counters.lastPrefillTokens / gap : 0,
        cudaGraph: step.cudaGraph,
      });
      counters.lastPrefillTime = step.time;
      counters.lastPrefillTokens = prefill.newTokens;
    }
    if (decode !== null) {
      counters.decoded += decode.tokens;
      counters.verifies += decode.verifies;
      counters.verifiedTokens += decode.verifies > 0 ? decode.tokens : 0;
      // A batch with an extend part is SGLang's extend (or mixed) forward, not a decode batch.
      if (prefill === null) counters.decodeBatches++;
      if (prefill === null && counters.decodeBatches % this.decodeLogInterval === 0) {
        lines.push(this.decodeLine(step, tag, counters));
      }
    }
    return lines;
  }

  private decodeLine(step: RankStep, tag: RankTag, counters: RankCounters): DecodeLine {
    const decode = step.decode!;
    const gap = step.time - counters.lastDecodeTime;
    const draftTokens = this.shape.draftTokens;
    const accept =
      draftTokens === null
        ? null
        : {
            length: counters.verifies > 0 ? counters.verifiedTokens / counters.verifies : 0,
            rate: counters.verifies > 0 ? counters.verifiedTokens / (counters.verifies * draftTokens) : 0,
          };
    const line: DecodeLine = {
      kind: 'decode',
      tag,
      runningReqs: decode.requests,
      tokens: decode.kvTokens,
      tokenUsage: decode.kvTokens / step.kvCapacity,
      accept,
      cudaGraph: step.cudaGraph,
      genThroughput: gap > 0 ? counters.decoded / gap : 0,
      queueReqs: decode.queued,
    };
    counters.lastDecodeTime = step.time;
    counters.decoded = 0;
    counters.verifies = 0;
    counters.verifiedTokens = 0;
    return line;
  }
}
