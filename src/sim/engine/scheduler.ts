/**
 * One serving instance stepping in engine time: its scheduler ranks (one, or one per DP-attention
 * rank) form their batches together, one step runs on all of them (MoE and gathers synchronise
 * the ranks: the step lasts as long as the slowest), and at the step's end the results are applied.
 * Under PD disaggregation a prefill instance hands each request off once its prompt is in KV, and a
 * decode instance admits requests whose KV (and first token) arrived by transfer.
 */
import type { ServerRole } from '../../deployment/index.js';
import type { ResolvedInstance } from '../model/resolve-instance.js';
import { runsAsCudaGraph, stepTime, type StepTiming } from '../model/step-time.js';
import { type LiveRequest, remainingOutput } from './live-request.js';
import { Rank, type WorkItem } from './rank.js';
import type { DecodeBatchStats, PrefillBatchStats, RankStep } from './rank-step.js';
import { drawAcceptedTokens } from './speculative.js';
import { StepProfile } from './step-profile.js';

/** Output of one request from one step, ready to be streamed. */
export interface StepOutput {
  live: LiveRequest;
  tokens: number;
  finished: boolean;
  /** The tokens came from a speculative verify pass. */
  verified: boolean;
  /** Prefill instance: the request leaves for a decode instance (its KV is transferred). */
  handoff: boolean;
}

interface InflightStep {
  end: number;
  timing: StepTiming;
  items: WorkItem[][];
  /** Each rank's extend batch as it was formed; null unless rank steps are recorded. */
  formed: (PrefillBatchStats | null)[] | null;
  cudaGraph: boolean;
}

/** A rank's share of a finished step; the engine adds when it ended and which instance ran it. */
export type RankStepStats = Omit<RankStep, 'time' | 'instance'>;

export interface SchedulerOptions {
  role: ServerRole;
  /** PrefillDelayer: max passes a rank's prefill waits for every rank to have prefill work (0 = off). */
  prefillDelayerPasses: number;
  /** Count what each rank's steps were (`finishStep().rankSteps`), for scheduler logs; off on the hot path otherwise. */
  recordRankSteps: boolean;
}

/** The extend part of a rank's freshly formed batch; null when it has none. */
function prefillStats(work: readonly WorkItem[], rank: Rank, kvTokensBefore: number): PrefillBatchStats | null {
  let requests = 0;
  let newTokens = 0;
  let cachedTokens = 0;
  for (const item of work) {
    if (!item.prefill) continue;
    requests++;
    newTokens += item.newTokens;
    // A newly admitted request starts from its cache hit; a chunked one continuing starts past it.
    if (item.context === item.live.cachedTokens) cachedTokens += item.context;
  }
  if (requests === 0) return null;
  return { requests, newTokens, cachedTokens, running: rank.running.length, queued: rank.waiting.length, kvTokens: kvTokensBefore };
}

export class Scheduler {
  readonly ranks: Rank[];
  private inflight: InflightStep | null = null;
  private nextRank = 0;
  private delayedPasses = 0;
  /** Decode instance: transferred requests admitted by the last `startStep`, their first token due now. */
  private admitted: LiveRequest[] = [];
  stepCount = 0;
  /** What this instance's steps were made of (for `predict --explain`). */
  readonly profile = new StepProfile();

  constructor(
    private readonly d: ResolvedInstance,
    private readonly options: SchedulerOptions,
  ) {
    this.ranks = Array.from({ length: d.attentionDp }, () => new Rank(d, d.kvCapacityPerRank));
  }

  /** The deployment this instance runs. */
  get deployment(): ResolvedInstance {
    return this.d;
  }

  /** What this instance does (PD mixed, prefill or decode). */
  get role(): ServerRole {
    return this.options.role;
  }

  /**
   * Queues a request on the next rank (round-robin load balancing) at engine time `now`; on a decode
   * instance its KV has arrived. Its queueing time counts from its first entry into a waiting queue.
   */
  enqueue(live: LiveRequest, now: number): void {
    live.queuedAt ??= now;
    live.rank = this.nextRank;
    this.nextRank = (this.nextRank + 1) % this.ranks.length;
    live.phase = 'waiting';
    this.ranks[live.rank]!.waiting.push(live);
  }

  /** End of the step in flight, or undefined when idle. */
  get stepEnd(): number | undefined {
    return this.inflight?.end;
  }

  /** Host time to launch the step in flight (its eager passes; 0 for graph replay or when idle). */
  get inflightLaunch(): number {
    return this.inflight?.timing.launch ?? 0;
  }

  get busy(): boolean {
    return this.inflight !== null;
  }

  /** True when no rank has anything queued or running. */
  get idle(): boolean {
    return this.inflight === null && this.ranks.every((r) => r.idle);
  }

  /** Whether the PrefillDelayer holds prefills back this pass (some ranks have no prefill work yet). */
  private prefillAllowed(): boolean {
    if (this.options.prefillDelayerPasses <= 0 || this.ranks.length === 1) return true;
    const hasPrefill = this.ranks.map((r) => r.waiting.length > 0 || r.chunked !== null);
    const anyRunning = this.ranks.some((r) => r.running.length > 0);
    if (!hasPrefill.some(Boolean) || hasPrefill.every(Boolean) || !anyRunning) {
      this.delayedPasses = 0;
      return true;
    }
    this.delayedPasses++;
    if (this.delayedPasses > this.options.prefillDelayerPasses) {
      this.delayedPasses = 0;
      return true;
    }
    return false;
  }

  /** Forms every rank's batch and starts the step at `now`; false when there is nothing to run. */
  startStep(now: number): boolean {
    if (this.inflight) return false;
    const allowPrefill = this.prefillAllowed();
    const spec = this.d.speculative;
    const role = this.options.role;
    const record = this.options.recordRankSteps;
    // SGLang logs a prefill batch before the batch takes its KV slots.
    const kvBefore = record ? this.ranks.map((rank) => rank.kvTokensInUse) : null;
    const items: WorkItem[][] = this.ranks.map((rank) => {
      if (role === 'decode') this.admitted.push(...rank.admitTransferred());
      const prefill = allowPrefill && role !== 'decode' ? rank.planPrefill(now) : [];
      if (prefill.length > 0 && !this.d.mixedChunk) return prefill;
      const decode = rank.planDecode(spec ? spec.draftTokens : 1);
      return prefill.concat(decode);
    });
    if (items.every((work) => work.length === 0)) {
      for (const rank of this.ranks) rank.resetRatioIfIdle();
      return false;
    }
    const timing = stepTime(this.d, items);
    const formed = kvBefore === null ? null : items.map((work, r) => prefillStats(work, this.ranks[r]!, kvBefore[r]!));
    this.inflight = { end: now + timing.duration, timing, items, formed, cudaGraph: formed !== null && runsAsCudaGraph(this.d, items) };
    this.stepCount++;
    this.profile.record(items, timing.duration);
    return true;
  }

  /** Decode instance: the requests admitted since the last call (their first token is emitted on admission). */
  takeAdmitted(): LiveRequest[] {
    const admitted = this.admitted;
    this.admitted = [];
    return admitted;
  }

  /**
   * Applies the step in flight: prefill progress, decoded (or accepted) tokens, finished requests;
   * with rank steps recorded, also what each rank with work did.
   */
  finishStep(): { end: number; timing: StepTiming; outputs: StepOutput[]; rankSteps: RankStepStats[] } {
    const step = this.inflight!;
    this.inflight = null;
    const outputs: StepOutput[] = [];
    const rankSteps: RankStepStats[] = [];
    const spec = this.d.speculative;
    step.items.forEach((list, r) => {
      const rank = this.ranks[r]!;
      let decoded = 0;
      let decodedTokens = 0;
      let verifies = 0;
      for (const item of list) {
        const live = item.live;
        if (live.phase === 'aborted' || live.phase === 'finished') continue;
        let tokens: number;
        const verified = spec !== null && !item.prefill;
        const handoff = item.prefill && this.options.role === 'prefill';
        if (item.prefill) {
          live.prefilled += item.newTokens;
          if (live.prefilled < live.inputTokens) continue;
          tokens = 1;
          if (!handoff && !rank.running.includes(live)) rank.running.push(live);
        } else if (spec) {
          tokens = Math.min(drawAcceptedTokens(live.random, live.acceptRate, spec.draftTokens), remainingOutput(live));
          live.verifyCount++;
          rank.growKv(live, tokens);
        } else {
          tokens = 1;
          rank.growKv(live, 1);
        }
        tokens = Math.min(tokens, remainingOutput(live));
        if (!item.prefill) {
          decoded++;
          decodedTokens += tokens;
          if (verified) verifies++;
        }
        live.generated += tokens;
        const finished = remainingOutput(live) <= 0;
        if (finished || handoff) {
          live.phase = finished ? 'finished' : 'transfer';
          rank.remove(live);
          rank.releaseKv(live, true, step.end);
        }
        outputs.push({ live, tokens, finished, verified, handoff: handoff && !finished });
      }
      const prefill = step.formed?.[r] ?? null;
      if (step.formed === null || (prefill === null && decoded === 0)) return;
      const decode: DecodeBatchStats | null =
        decoded === 0 ? null : { requests: decoded, tokens: decodedTokens, verifies, queued: rank.waiting.length, kvTokens: rank.kvTokensInUse };
      rankSteps.push({ rank: r, prefill, decode, kvCapacity: rank.capacity, cudaGraph: step.cudaGraph });
    });
    return { end: step.end, timing: step.timing, outputs, rankSteps };
  }
}
