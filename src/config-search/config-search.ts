/**
 * Configuration search in prediction mode: for every candidate deployment that fits, find the
 * highest concurrency meeting the SLO (or the peak without one), then rank the candidates by
 * output tokens/s per card at that load. A coarse pass ranks every candidate; the best few are
 * refined with the fine tolerance, reusing every prediction already made.
 */
import type { ConfigCandidate } from './config-space.js';
import { type LoadSeries, type Slo, outputThroughput, peakPoint, runSeries, runSloSearch, type MeasureAt, type PointMeasurement, type SweepPoint } from '../sweep/index.js';

export interface CandidateOutcome {
  candidate: ConfigCandidate;
  /** Why the candidate was not evaluated (does not fit, ...), or null. */
  skipped: string | null;
  /** The point the ranking uses: the SLO knee, or the peak without an SLO; null when none qualifies. */
  chosen: SweepPoint | null;
  /** Output tokens/s per card at the chosen point (0 when none). */
  perCard: number;
  /** Distinct predictions made for this candidate. */
  runs: number;
}

/** Evaluates candidates by index; asking again with a finer tolerance reuses the earlier predictions. */
export interface CandidateEvaluator {
  evaluate(index: number, tolerance: number): Promise<CandidateOutcome>;
}

export interface EvaluationContext {
  candidates: readonly ConfigCandidate[];
  cards: number;
  slo: Slo | null;
  /** Concurrency ceiling of each candidate's search. */
  maxConcurrency: number;
  /** Returns a reason when a candidate cannot run (e.g. the model does not fit), else null. */
  infeasibility(candidate: ConfigCandidate): string | null;
  /** How to measure one candidate at a concurrency. */
  measureFor(candidate: ConfigCandidate): MeasureAt;
}

/** Without an SLO a candidate is judged at its peak; an automatic series finds it. */
const PEAK_SERIES = (limit: number): LoadSeries => ({ mode: 'auto', start: 1, factor: 2, limit });

/** Measures each load once, however many passes ask for it. */
function memoized(measureAt: MeasureAt): { measureAt: MeasureAt; count(): number } {
  const seen = new Map<number, Promise<PointMeasurement>>();
  return {
    measureAt: (load) => {
      let pending = seen.get(load);
      if (pending === undefined) {
        pending = measureAt(load);
        seen.set(load, pending);
      }
      return pending;
    },
    count: () => seen.size,
  };
}

/** An evaluator that predicts in this thread. */
export function createLocalEvaluator(context: EvaluationContext): CandidateEvaluator {
  const memos = new Map<number, ReturnType<typeof memoized>>();
  return {
    async evaluate(index, tolerance) {
      const candidate = context.candidates[index] as ConfigCandidate;
      let memo = memos.get(index);
      if (memo === undefined) {
        const skipped = context.infeasibility(candidate);
        if (skipped !== null) return { candidate, skipped, chosen: null, perCard: 0, runs: 0 };
        memo = memoized(context.measureFor(candidate));
        memos.set(index, memo);
      }
      let chosen: SweepPoint | null;
      if (context.slo !== null) {
        const search = await runSloSearch(context.slo, memo.measureAt, { kind: 'concurrency', start: 1, limit: context.maxConcurrency, tolerance });
        chosen = search.knee;
      } else {
        chosen = peakPoint(await runSeries(PEAK_SERIES(context.maxConcurrency), memo.measureAt, null)) ?? null;
      }
      const perCard = chosen ? outputThroughput(chosen) / context.cards : 0;
      return { candidate, skipped: null, chosen, perCard, runs: memo.count() };
    },
  };
}

export interface ConfigSearchOptions {
  candidates: readonly ConfigCandidate[];
  evaluator: CandidateEvaluator;
  /** Evaluations in flight at once (the evaluator's worker count). */
  parallelism: number;
  /** Resolution of the final knee of the best candidates. */
  tolerance: number;
  /** Resolution of the first pass over every candidate (coarser: most candidates only need ranking). */
  coarseTolerance: number;
  /** How many of the best candidates get the fine pass. */
  refine: number;
  /** Called after each candidate's first pass, e.g. to print progress. */
  onCandidate?(outcome: CandidateOutcome, index: number): void;
  /** Called after each refined candidate's fine pass, with the figures the ranking will show. */
  onRefined?(outcome: CandidateOutcome, index: number): void;
}

/** Runs `task` for every index with at most `parallelism` in flight. */
async function forEachLimited(indices: readonly number[], parallelism: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < indices.length) await task(indices[next++] as number);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallelism, indices.length)) }, lane));
}

/** Evaluates every candidate, refines the best, and returns them best first (failing and skipped ones last). */
export async function searchConfigurations(options: ConfigSearchOptions): Promise<CandidateOutcome[]> {
  const outcomes: CandidateOutcome[] = [];
  const indices = options.candidates.map((_, index) => index);
  await forEachLimited(indices, options.parallelism, async (index) => {
    const outcome = await options.evaluator.evaluate(index, Math.max(options.coarseTolerance, options.tolerance));
    outcomes[index] = outcome;
    options.onCandidate?.(outcome, index);
  });
  const best = rankOutcomes(outcomes).slice(0, options.refine).filter((outcome) => outcome.skipped === null);
  const refined = best.map((outcome) => outcomes.indexOf(outcome));
  await forEachLimited(refined, options.parallelism, async (index) => {
    const outcome = await options.evaluator.evaluate(index, options.tolerance);
    outcomes[index] = outcome;
    options.onRefined?.(outcome, index);
  });
  return rankOutcomes(outcomes);
}

/** Best first: evaluated candidates by tokens/s per card, then those with no qualifying load, then skipped ones. */
export function rankOutcomes(outcomes: readonly CandidateOutcome[]): CandidateOutcome[] {
  const tier = (outcome: CandidateOutcome): number => (outcome.skipped !== null ? 2 : outcome.chosen === null ? 1 : 0);
  return [...outcomes].sort((a, b) => tier(a) - tier(b) || b.perCard - a.perCard);
}
