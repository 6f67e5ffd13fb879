/**
 * bench_serving's `calculate_metrics` (spec §5): totals, throughputs and latency statistics
 * over the successful outputs, numpy-equal. Pure and synchronous: token counts that need the
 * tokenizer come in precomputed.
 */
import { max, mean, medianOfSorted, orZero, percentileOfSorted, sortAscending, std, sum } from '../../core/stats.js';
import type { BackendName } from '../args/types.js';
import type { RequestOutput } from '../types.js';
import { calculatePeaks } from './peaks.js';
import type { BenchmarkMetrics, MetricsInput } from './types.js';

/** Printed (as a warning) when no request succeeded; the block then shows zeros (Q7). */
export const ALL_REQUESTS_FAILED_WARNING =
  'All requests failed. This is likely due to a misconfiguration on the benchmark arguments.';

/**
 * True when the ITL list is rebuilt from per-chunk token counts: for `sglang-oai` and
 * `sglang-oai-chat` with a positive accept length, one content chunk carries several tokens.
 */
export function usesRetokenizedItl(backend: BackendName, acceptLength: number | null): boolean {
  return (backend === 'sglang-oai' || backend === 'sglang-oai-chat') && acceptLength !== null && acceptLength > 0;
}

/**
 * Splits each decode chunk's gap evenly over the tokens it carried: `n` copies of `itl[k] / n`.
 * Chunks that encode to no token are skipped (bench_serving would divide by zero, Q21).
 */
export function retokenizedItl(output: RequestOutput, chunkTokens: readonly number[]): number[] {
  const itl: number[] = [];
  output.textChunks.forEach((_chunk, k) => {
    const tokens = chunkTokens[k] ?? 0;
    const gap = output.itl[k];
    if (tokens <= 0 || gap === undefined) return;
    for (let i = 0; i < tokens; i += 1) itl.push(gap / tokens);
  });
  return itl;
}

/** Seconds → ms after the statistic, as bench_serving multiplies (`np.mean(x) * 1000`). */
const ms = (seconds: number): number => seconds * 1000;

/** Computes the reference metrics of a run; zero successes give zeros instead of a crash. */
export function calculateMetrics(input: MetricsInput): BenchmarkMetrics {
  const { outputs, durationS } = input;
  const retokenize = usesRetokenizedItl(input.backend, input.acceptLength);
  if (retokenize && input.chunkTokenCounts === undefined) {
    throw new Error('calculateMetrics: chunkTokenCounts is required for sglang-oai backends with an accept length');
  }
  const countInput = input.multiTurn !== true;
  let completed = 0;
  let totalInput = 0;
  let totalInputText = 0;
  let totalInputVision = 0;
  let totalOutput = 0;
  let totalOutputRetokenized = 0;
  const ttfts: number[] = [];
  const tpots: number[] = [];
  const itls: number[] = [];
  const e2e: number[] = [];
  const successes: RequestOutput[] = [];
  outputs.forEach((output, i) => {
    if (!output.success) return;
    successes.push(output);
    completed += 1;
    if (countInput) {
      totalInput += output.promptLen;
      totalInputText += output.textPromptLen ?? output.promptLen;
      totalInputVision += output.visionPromptLen ?? 0;
    }
    totalOutput += output.outputLen;
    totalOutputRetokenized += input.retokenizedOutputLens[i] ?? 0;
    if (output.outputLen > 1) tpots.push((output.latency - output.ttft) / (output.outputLen - 1));
    const outputItl = retokenize ? retokenizedItl(output, input.chunkTokenCounts?.[i] ?? []) : output.itl;
    for (const gap of outputItl) itls.push(gap);
    ttfts.push(output.ttft);
    e2e.push(output.latency);
  });
  const ttft = orZero(ttfts);
  const tpot = orZero(tpots);
  const itl = orZero(itls);
  const latency = orZero(e2e);
  // Sorted once per list: the ITL list of a long run has millions of entries.
  const ttftSorted = sortAscending(ttft);
  const tpotSorted = sortAscending(tpot);
  const itlSorted = sortAscending(itl);
  const latencySorted = sortAscending(latency);
  return {
    durationS,
    completed,
    totalInput,
    totalInputText,
    totalInputVision,
    totalOutput,
    totalOutputRetokenized,
    requestThroughput: completed / durationS,
    inputThroughput: totalInput / durationS,
    outputThroughput: totalOutput / durationS,
    outputThroughputRetokenized: totalOutputRetokenized / durationS,
    totalThroughput: (totalInput + totalOutput) / durationS,
    totalThroughputRetokenized: (totalInput + totalOutputRetokenized) / durationS,
    meanTtftMs: ms(mean(ttft)),
    medianTtftMs: ms(medianOfSorted(ttftSorted)),
    stdTtftMs: ms(std(ttft)),
    p99TtftMs: ms(percentileOfSorted(ttftSorted, 99)),
    meanTpotMs: ms(mean(tpot)),
    medianTpotMs: ms(medianOfSorted(tpotSorted)),
    stdTpotMs: ms(std(tpot)),
    p99TpotMs: ms(percentileOfSorted(tpotSorted, 99)),
    meanItlMs: ms(mean(itl)),
    medianItlMs: ms(medianOfSorted(itlSorted)),
    stdItlMs: ms(std(itl)),
    p95ItlMs: ms(percentileOfSorted(itlSorted, 95)),
    p99ItlMs: ms(percentileOfSorted(itlSorted, 99)),
    maxItlMs: ms(max(itl)),
    meanE2eLatencyMs: ms(mean(latency)),
    medianE2eLatencyMs: ms(medianOfSorted(latencySorted)),
    stdE2eLatencyMs: ms(std(latency)),
    p90E2eLatencyMs: ms(percentileOfSorted(latencySorted, 90)),
    p99E2eLatencyMs: ms(percentileOfSorted(latencySorted, 99)),
    concurrency: sum(e2e) / durationS,
    acceptLength: input.acceptLength,
    ...calculatePeaks(successes),
  };
}
