/**
 * What an instance's steps were made of over a run, kept as running sums so that a typical decode
 * step and a typical prefill step can be rebuilt and explained (`predict --explain`).
 */
import type { RequestWork } from '../model/request-work.js';

interface PhaseSums {
  steps: number;
  seconds: number;
  /** Rank-steps that had work of this phase. */
  rankSteps: number;
  requests: number;
  newTokens: number;
  context: number;
}

/** A step rebuilt from the run's averages: each active rank's batch, and the share of time such steps took. */
export interface TypicalStep {
  ranks: RequestWork[][];
  steps: number;
  seconds: number;
}

const empty = (): PhaseSums => ({ steps: 0, seconds: 0, rankSteps: 0, requests: 0, newTokens: 0, context: 0 });

export class StepProfile {
  private readonly decode = empty();
  private readonly prefill = empty();

  /** Adds one step: every rank's batch and how long the step took. */
  record(ranks: readonly (readonly RequestWork[])[], seconds: number): void {
    const prefill = ranks.some((work) => work.some((w) => w.prefill));
    const sums = prefill ? this.prefill : this.decode;
    sums.steps++;
    sums.seconds += seconds;
    for (const work of ranks) {
      let requests = 0;
      for (const w of work) {
        if (w.prefill !== prefill) continue;
        requests++;
        sums.newTokens += w.newTokens;
        sums.context += w.context;
      }
      if (requests === 0) continue;
      sums.rankSteps++;
      sums.requests += requests;
    }
  }

  /** The average step of a phase over `ranksPerStep` ranks, or null when the run had none. */
  private typical(sums: PhaseSums, prefill: boolean, ranksPerStep: number): TypicalStep | null {
    if (sums.steps === 0 || sums.requests === 0) return null;
    const active = Math.max(1, Math.round(sums.rankSteps / sums.steps));
    const requests = Math.max(1, Math.round(sums.requests / sums.rankSteps));
    const request: RequestWork = { newTokens: sums.newTokens / sums.requests, context: sums.context / sums.requests, prefill };
    const ranks = Array.from({ length: Math.min(active, ranksPerStep) }, () => Array.from({ length: requests }, () => ({ ...request })));
    return { ranks, steps: sums.steps, seconds: sums.seconds };
  }

  typicalDecode(ranksPerStep: number): TypicalStep | null {
    return this.typical(this.decode, false, ranksPerStep);
  }

  typicalPrefill(ranksPerStep: number): TypicalStep | null {
    return this.typical(this.prefill, true, ranksPerStep);
  }
}
