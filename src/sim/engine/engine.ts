/**
 * The simulated SGLang engine: front end → router → scheduler instances, each stepping in engine
 * time with the performance model. PD mixed: the instances are data-parallel replicas of one server.
 * PD disaggregated: prefill instances hand each request's KV to decode instances over the network.
 * Pure and clock-free: the HTTP server drives it in wall time and `predict` in virtual time,
 * through the Engine contract of src/sim/types.ts.
 */
import type { ServerRole, LaunchConfig } from '../../deployment/index.js';
import { resolveInstance, type ResolvedInstance } from '../model/resolve-instance.js';
import type { Calibration } from '../model/efficiency.js';
import { kvTransferSeconds } from '../model/kv-transfer.js';
import { hidesHostWork, runsOverlapLoop } from '../model/step-time.js';
import { seededUniform } from '../text/seeded-random.js';
import { TimeHeap } from '../truth/time-heap.js';
import type { DpRankLoad, Engine, EngineStats, SimRequest, TokenEmission } from '../types.js';
import { FrontEnd } from './front-end.js';
import { newLiveRequest, remainingOutput, type LiveRequest } from './live-request.js';
import type { RankStepObserver } from './rank-step.js';
import { Scheduler, type StepOutput } from './scheduler.js';
import type { StepProfile } from './step-profile.js';
import { acceptRateAt, bodyRateForPopulation, inTail, rateForLength, type TailRate } from './speculative.js';

export interface EngineOptions {
  /** Seed of the engine's draws (accept lengths); defaults to the launch's `simSeed`. */
  seed?: number;
  /** A deployment resolved beforehand (what-if studies); defaults to resolving `launch`. */
  deployment?: ResolvedInstance;
  /** PrefillDelayer max delay passes for DP attention; 0 = off. Defaults to the launch flags' (off unless enabled). */
  prefillDelayerPasses?: number;
  /**
   * The workload's accept length (accepted tokens per verify pass, as bench_serving reports it), when
   * known: the body of the acceptance distribution is then set so that, with the stack's low tail, the
   * whole workload averages it. Defaults to the calibration's rate for the model on the launch's
   * `--sim-dataset` (model/acceptance-table.ts).
   */
  acceptLength?: number;
  /** Efficiency factors and acceptance to run with (the accuracy script's refits); defaults to the stored fit. */
  calibration?: Calibration;
  /** Told what every scheduler rank's batch was and did, step by step (the sim server's scheduler log). */
  onRankStep?: RankStepObserver;
}

/** One kind of instance of an engine (all its replicas run the same deployment) and what its steps were made of. */
export interface InstanceProfile {
  role: ServerRole;
  deployment: ResolvedInstance;
  profile: StepProfile;
}

/** An Engine that also exposes the deployment whose instances stream the tokens. */
export interface SimEngine extends Engine {
  readonly deployment: ResolvedInstance;
  /** The entry instance (PD mixed, or prefill) and the decode instance, each as its first replica saw its steps. */
  instanceProfiles(): InstanceProfile[];
}

function schedulerFor(deployment: ResolvedInstance, role: ServerRole, options: EngineOptions): Scheduler {
  const prefillDelayerPasses = options.prefillDelayerPasses ?? deployment.prefillDelayerPasses;
  return new Scheduler(deployment, { role, prefillDelayerPasses, recordRankSteps: options.onRankStep !== undefined });
}

/**
 * Creates the simulated engine of one server (SGLang flags + sim hardware/model): its `--dp`
 * replicas behind one front end. With `--disaggregation-mode decode` they are decode instances, whose
 * requests arrive with their KV (see SimRequest.kvArrivalTime); a prefill instance serves whole
 * requests (its server asks for one token). Compose PD in one engine with {@link createDisaggregatedEngine}.
 */
export function createEngine(launch: LaunchConfig, options: EngineOptions = {}): SimEngine {
  const deployment = options.deployment ?? resolveInstance(launch, options.calibration);
  // A decode instance serving alone gets every request's KV from elsewhere (SimRequest.kvArrivalTime).
  const role: ServerRole = launch.disaggregationMode === 'decode' ? 'decode' : 'mixed';
  const replicas = Array.from({ length: deployment.replicas }, () => schedulerFor(deployment, role, options));
  return new ModelEngine(replicas, [], options.seed ?? launch.simSeed, options.acceptLength, options.onRankStep);
}

/**
 * Creates a PD-disaggregated engine: requests are prefilled on the prefill instances (round-robin),
 * their KV moves to a decode instance (round-robin) in `kvTransferSeconds`, and the decode instance
 * streams every token, the first one included, once it admits the request.
 */
export function createDisaggregatedEngine(prefill: LaunchConfig[], decode: LaunchConfig[], options: Omit<EngineOptions, 'deployment'> = {}): SimEngine {
  const build = (launches: LaunchConfig[], role: ServerRole) =>
    launches.flatMap((launch) => {
      const deployment = resolveInstance(launch, options.calibration);
      return Array.from({ length: deployment.replicas }, () => schedulerFor(deployment, role, options));
    });
  const seed = options.seed ?? decode[0]?.simSeed ?? 0;
  return new ModelEngine(build(prefill, 'prefill'), build(decode, 'decode'), seed, options.acceptLength, options.onRankStep);
}

/** Acceptance distribution of speculative decoding: the body's mean rate, and the low tail with its seeded phase. */
interface Acceptance {
  bodyRate: number;
  tail: (TailRate & { phase: number }) | null;
}

/** The acceptance distribution of a deployment's speculative decoding (null without it). */
function acceptanceOf(d: ResolvedInstance, acceptLength: number | undefined, seed: number): Acceptance | null {
  const spec = d.speculative;
  if (!spec) return null;
  const lowTail = d.efficiency.speculative.lowAcceptTail;
  // The phase draws from a stream no request uses (requests use streams 0, 1, 2, ...).
  const tail = lowTail
    ? { fraction: lowTail.fraction, rate: rateForLength(lowTail.acceptLength, spec.draftTokens), phase: seededUniform(seed, -1)() }
    : null;
  const bodyRate = acceptLength === undefined ? spec.acceptRate : bodyRateForPopulation(acceptLength, spec.draftTokens, lowTail);
  return { bodyRate, tail };
}

class ModelEngine implements SimEngine {
  private readonly frontEnd: FrontEnd<LiveRequest>;
  /** Entry instances first (replicas or prefill instances), then decode instances. */
  private readonly schedulers: Scheduler[];
  private readonly transfers = new TimeHeap<LiveRequest>();
  private readonly live = new Map<string, LiveRequest>();
  private nextEntry = 0;
  private nextDecode = 0;
  private submitted = 0;
  private clock = 0;
  private readonly totals = { prompt: 0, generated: 0, cached: 0, finished: 0, queueTimeSum: 0, queued: 0 };
  private spec = { verifies: 0, accepted: 0 };
  readonly deployment: ResolvedInstance;
  /** Acceptance distribution of the instance that verifies drafts: body mean and low tail. */
  private readonly acceptance: Acceptance | null;

  constructor(
    private readonly entry: Scheduler[],
    private readonly decode: Scheduler[],
    private readonly seed: number,
    acceptLength: number | undefined,
    private readonly onRankStep: RankStepObserver | undefined,
  ) {
    if (entry.length === 0) throw new Error('an engine needs at least one instance');
    this.schedulers = [...entry, ...decode];
    this.deployment = (decode[0] ?? entry[0]!).deployment;
    this.frontEnd = new FrontEnd(this.deployment.efficiency.frontEnd);
    this.acceptance = acceptanceOf(this.deployment, acceptLength, seed);
  }

  submit(request: SimRequest): void {
    const index = this.submitted++;
    const random = seededUniform(this.seed, index);
    const live = newLiveRequest(request, this.acceptRate(index), random);
    this.live.set(request.id, live);
    this.totals.prompt += request.promptTokens;
    if (request.kvArrivalTime === undefined) {
      this.frontEnd.ingest(live, Math.max(request.arrivalTime, this.clock));
      return;
    }
    live.phase = 'transfer';
    live.generated = 1;
    this.transfers.push(Math.max(request.kvArrivalTime, this.clock), live);
  }

  /** The `index`-th submitted request's own acceptance rate (0 without speculative decoding). */
  private acceptRate(index: number): number {
    const acceptance = this.acceptance;
    if (acceptance === null) return 0;
    const { tail } = acceptance;
    if (tail !== null && inTail(index, tail.fraction, tail.phase)) return tail.rate;
    return acceptRateAt(index, acceptance.bodyRate, this.deployment.efficiency.speculative.acceptSpread);
  }

  abort(requestId: string): void {
    const live = this.live.get(requestId);
    if (!live) return;
    this.live.delete(requestId);
    if (live.phase === 'frontend') {
      this.frontEnd.drop((item) => item === live);
    } else if (live.phase !== 'transfer') {
      const rank = this.schedulers[live.instance]!.ranks[live.rank]!;
      rank.remove(live);
      rank.releaseKv(live, false, this.clock);
    }
    live.phase = 'aborted';
  }

  nextEventTime(): number | undefined {
    let next = this.frontEnd.nextRelease();
    const transfer = this.transfers.peekTime();
    if (transfer !== undefined && (next === undefined || transfer < next)) next = transfer;
    for (const scheduler of this.schedulers) {
      const end = scheduler.stepEnd;
      if (end !== undefined && (next === undefined || end < next)) next = end;
    }
    return next;
  }

  /** Hands a request to the next instance of a pool, round-robin, at engine time `now`. */
  private route(live: LiveRequest, pool: 'entry' | 'decode', now: number): void {
    if (pool === 'entry') {
      live.instance = this.nextEntry;
      this.nextEntry = (this.nextEntry + 1) % this.entry.length;
    } else {
      live.instance = this.entry.length + this.nextDecode;
      this.nextDecode = (this.nextDecode + 1) % this.decode.length;
    }
    this.schedulers[live.instance]!.enqueue(live, now);
  }

  advanceTo(until: number): TokenEmission[] {
    const emissions: TokenEmission[] = [];
    for (let t = this.nextEventTime(); t !== undefined && t <= until; t = this.nextEventTime()) {
      this.clock = Math.max(this.clock, t);
      for (const live of this.frontEnd.release(t)) if (live.phase !== 'aborted') this.route(live, 'entry', t);
      while ((this.transfers.peekTime() ?? Infinity) <= t) {
        const live = this.transfers.pop()!;
        if (live.phase !== 'aborted') this.route(live, this.decode.length > 0 ? 'decode' : 'entry', t);
      }
      this.schedulers.forEach((scheduler, instance) => {
        let finished: ReturnType<Scheduler['finishStep']> | null = null;
        if (scheduler.stepEnd !== undefined && scheduler.stepEnd <= t) {
          finished = scheduler.finishStep();
          for (const rankStep of finished.rankSteps) this.onRankStep?.({ time: finished.end, instance, ...rankStep });
        }
        const stepping = !scheduler.busy;
        if (stepping) scheduler.startStep(t);
        if (finished !== null) {
          const { end, timing, outputs } = finished;
          // SGLang's overlap loop forms and launches the next batch before it processes these results,
          // so they are visible after that host pass: the scheduling work, and an eager pass's launch
          // (a prefill right after this step holds back its tokens until every kernel is queued);
          // speculative decoding's loop processes them before it launches. Without overlap the step's
          // own host work, already in its duration, did.
          const nextLaunch = runsOverlapLoop(scheduler.deployment) ? scheduler.inflightLaunch : 0;
          const ready = hidesHostWork(scheduler.deployment) ? end + timing.cpu + nextLaunch : end;
          for (const output of outputs) {
            if (output.handoff) this.transfers.push(end + kvTransferSeconds(scheduler.deployment, this.deployment, output.live.inputTokens), output.live);
            else emissions.push(this.emit(output, ready));
          }
        }
        if (stepping) {
          for (const live of scheduler.takeAdmitted()) {
            // A request whose one token is the prefill's ends on admission.
            const finished = remainingOutput(live) <= 0;
            if (finished) {
              const rank = scheduler.ranks[live.rank]!;
              live.phase = 'finished';
              rank.remove(live);
              rank.releaseKv(live, true, t);
            }
            emissions.push(this.emit({ live, tokens: live.generated, finished, verified: false, handoff: false }, t));
          }
        }
      });
    }
    return emissions;
  }

  private emit(output: StepOutput, ready: number): TokenEmission {
    const { live, tokens, finished, verified } = output;
    if (!live.firstEmitted) {
      live.firstEmitted = true;
      this.totals.cached += live.cachedTokens;
      if (live.queueTime !== null) {
        this.totals.queueTimeSum += live.queueTime;
        this.totals.queued++;
      }
    }
    this.totals.generated += tokens;
    if (verified) {
      this.spec.verifies++;
      this.spec.accepted += tokens;
    }
    if (finished) {
      this.totals.finished++;
      this.live.delete(live.request.id);
    }
    return {
      requestId: live.request.id,
      time: this.frontEnd.scheduleChunk(ready),
      tokens,
      completionTokens: live.generated,
      cachedTokens: live.cachedTokens,
      specVerifyCount: live.verifyCount,
      ...(live.queueTime === null ? {} : { queueTime: live.queueTime }),
      finished,
      finishReason: finished ? live.request.finishReason : null,
    };
  }

  flushCache(): boolean {
    if (this.live.size > 0) return false;
    for (const scheduler of this.schedulers) for (const rank of scheduler.ranks) rank.cache.reset();
    this.spec = { verifies: 0, accepted: 0 };
    return true;
  }

  instanceProfiles(): InstanceProfile[] {
    return [this.entry[0], this.decode[0]]
      .filter((s): s is Scheduler => s !== undefined)
      .map((s) => ({ role: s.role, deployment: s.deployment, profile: s.profile }));
  }

  stats(): EngineStats {
    let running = 0;
    // As SGLang's num_queue_reqs: the schedulers' waiting queues, not the front end nor KV in transfer.
    let waiting = 0;
    let used = 0;
    let capacity = 0;
    let steps = 0;
    const dpRanks: DpRankLoad[] = [];
    for (const scheduler of this.schedulers) {
      steps += scheduler.stepCount;
      for (const rank of scheduler.ranks) {
        const rankUsed = rank.used + rank.cache.size;
        dpRanks.push({ numRunning: rank.active, numWaiting: rank.waiting.length, kvUsage: rank.capacity > 0 ? rankUsed / rank.capacity : 0 });
        running += rank.active;
        waiting += rank.waiting.length;
        used += rankUsed;
        capacity += rank.capacity;
      }
    }
    return {
      dpRanks,
      numRunning: running,
      numWaiting: waiting,
      kvUsage: capacity > 0 ? used / capacity : 0,
      kvCapacityTokens: capacity,
      avgSpecAcceptLength: this.deployment.speculative ? (this.spec.verifies > 0 ? this.spec.accepted / this.spec.verifies : 0) : null,
      promptTokensTotal: this.totals.prompt,
      generationTokensTotal: this.totals.generated,
      cachedTokensTotal: this.totals.cached,
      requestsFinished: this.totals.finished,
      queueTimeSum: this.totals.queueTimeSum,
      queuedRequests: this.totals.queued,
      stepCount: steps,
    };
  }
}
