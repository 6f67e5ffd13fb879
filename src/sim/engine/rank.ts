/**
 * One scheduler rank (a whole instance, or one DP-attention rank): its queues, KV pool, radix cache
 * and SGLang's scheduling rules — PrefillAdder admission under the KV budget and the new-token
 * ratio, chunked prefill with the partial request first, decode memory checks and retraction.
 */
import type { ResolvedInstance } from '../model/resolve-instance.js';
import type { RequestWork } from '../model/request-work.js';
import { remainingOutput, type LiveRequest } from './live-request.js';
import { RadixCache } from './radix-cache.js';

/** SGLang clips each request's future-output reservation at this many tokens. */
const CLIP_MAX_NEW_TOKENS = 4096;
/** A retraction frees room for this many decode steps of the remaining batch. */
const RETRACT_DECODE_STEPS = 20;

/** One request's part of a planned step: its work, and the request it belongs to. */
export interface WorkItem extends RequestWork {
  live: LiveRequest;
}

function pageCeil(tokens: number, page: number): number {
  return Math.ceil(tokens / page) * page;
}

export class Rank {
  readonly waiting: LiveRequest[] = [];
  readonly running: LiveRequest[] = [];
  /** The request whose prefill was cut by the chunk budget; it continues first. */
  chunked: LiveRequest | null = null;
  /** KV slots owned by requests (the radix cache's tokens are counted by the cache). */
  used = 0;
  readonly cache = new RadixCache();
  private newTokenRatio: number;
  retractions = 0;

  constructor(
    private readonly d: ResolvedInstance,
    readonly capacity: number,
  ) {
    this.newTokenRatio = d.newTokenRatio.initial;
  }

  /** Requests holding a batch slot (decoding, or mid-prefill). */
  get active(): number {
    return this.running.length + (this.chunked ? 1 : 0);
  }

  get idle(): boolean {
    return this.waiting.length === 0 && this.active === 0;
  }

  /** KV slots held by requests and by the cache entries they lock: what SGLang's logs count as used. */
  get kvTokensInUse(): number {
    return this.used + this.cache.size - this.cache.evictable;
  }

  /** KV slots free now, evictable cache included. */
  available(): number {
    return this.capacity - this.used - this.cache.size + this.cache.evictable;
  }

  /** Takes `tokens` KV slots, evicting cache leaves if needed; false when they do not exist. */
  private allocate(tokens: number, force = false): boolean {
    const free = this.capacity - this.used - this.cache.size;
    if (free < tokens) this.cache.evict(tokens - free);
    if (!force && this.capacity - this.used - this.cache.size < tokens) return false;
    this.used += tokens;
    return true;
  }

  /** Records decode output in KV (the room was checked when the step was planned). */
  growKv(live: LiveRequest, tokens: number): void {
    this.allocate(tokens, true);
    live.ownedKv += tokens;
  }

  /** Radix lookup for a request about to be admitted: reusable prompt prefix, page aligned. */
  private matchPrefix(live: LiveRequest, now: number): void {
    const ids = live.request.promptTokenIds;
    if (!this.d.radixCache || ids === undefined || live.generated > 0) return;
    const limit = Math.floor((Math.min(ids.length, live.inputTokens) - 1) / this.d.pageSize) * this.d.pageSize;
    if (limit <= 0) return;
    const match = this.cache.match(ids, limit, now);
    if (match.length === 0) return;
    this.cache.lock(match.node);
    live.prefix = match;
    live.cachedTokens = match.length;
    live.prefilled = match.length;
  }

  /** KV slots left for admissions after reserving the running requests' future output (new-token ratio). */
  private admissionBudget(): number {
    let reserved = 0;
    for (const r of this.running) reserved += Math.min(remainingOutput(r), CLIP_MAX_NEW_TOKENS) * this.newTokenRatio;
    return this.available() - reserved;
  }

  /** Puts `n` more prompt tokens of `live` into the planned step, in KV slots it owns. */
  private addPrefill(items: WorkItem[], live: LiveRequest, n: number): void {
    this.allocate(n, true);
    live.ownedKv += n;
    items.push({ live, newTokens: n, context: live.prefilled, prefill: true });
  }

  /**
   * The extend batch of this pass (SGLang PrefillAdder): the chunked request first, then waiting
   * requests in FCFS order while the chunk and prefill budgets, the KV budget (minus the new-token
   * ratio's reservation for running requests) and max-running-requests allow.
   */
  planPrefill(now: number): WorkItem[] {
    const items: WorkItem[] = [];
    let chunkBudget = this.d.chunkedPrefillPerRank;
    let inputBudget = this.d.maxPrefillTokens;
    const page = this.d.pageSize;
    if (this.chunked) {
      const live = this.chunked;
      const rest = live.inputTokens - live.prefilled;
      const n = rest <= chunkBudget ? rest : Math.max(page, Math.floor(chunkBudget / page) * page);
      this.addPrefill(items, live, n);
      chunkBudget -= n;
      inputBudget -= n;
      if (n >= rest) this.chunked = null;
    }
    let budget = this.admissionBudget();
    while (this.waiting.length > 0 && chunkBudget > 0 && inputBudget > 0 && this.chunked === null) {
      if (this.running.length + items.length >= this.d.maxRunningPerRank) break;
      const live = this.waiting[0]!;
      const nothingElse = this.running.length === 0 && items.length === 0;
      this.matchPrefix(live, now);
      const extend = pageCeil(live.inputTokens - live.prefilled, page);
      const need = extend + Math.min(remainingOutput(live), CLIP_MAX_NEW_TOKENS);
      if (need >= budget && !nothingElse) {
        this.unmatch(live);
        break;
      }
      this.waiting.shift();
      live.phase = 'running';
      // SGLang's queueing time ends at the first admission; a retracted request admitted again keeps it.
      if (live.queueTime === null && live.queuedAt !== null) live.queueTime = now - live.queuedAt;
      const n = extend <= chunkBudget ? live.inputTokens - live.prefilled : Math.max(page, Math.floor(chunkBudget / page) * page);
      this.addPrefill(items, live, n);
      budget -= need;
      chunkBudget -= n;
      inputBudget -= n;
      if (live.prefilled + n < live.inputTokens) this.chunked = live;
    }
    return items;
  }

  /**
   * Decode instance: moves transferred requests (KV and first token already made by a prefill
   * instance) into the running batch while slots and the KV budget allow; returns them.
   */
  admitTransferred(): LiveRequest[] {
    const admitted: LiveRequest[] = [];
    let budget = this.admissionBudget();
    while (this.waiting.length > 0 && this.running.length < this.d.maxRunningPerRank) {
      const live = this.waiting[0]!;
      const need = live.inputTokens + Math.min(remainingOutput(live), CLIP_MAX_NEW_TOKENS);
      if (need >= budget && this.running.length > 0) break;
      this.waiting.shift();
      this.allocate(live.inputTokens, true);
      live.ownedKv = live.inputTokens;
      live.prefilled = live.inputTokens;
      live.phase = 'running';
      this.running.push(live);
      admitted.push(live);
      budget -= need;
    }
    return admitted;
  }

  private unmatch(live: LiveRequest): void {
    if (live.prefix) this.cache.unlock(live.prefix.node);
    live.prefix = null;
    live.cachedTokens = 0;
    live.prefilled = 0;
  }

  /**
   * The decode batch: every running request, after making room for `tokensPerRequest` new slots
   * each — evicting cache leaves, then retracting the requests with the least progress (longest
   * input on ties) until 20 steps of room exist. Retracted requests go back to the front of the queue.
   */
  planDecode(tokensPerRequest: number): WorkItem[] {
    if (this.running.length === 0) return [];
    if (this.available() < this.running.length * tokensPerRequest) this.retract(tokensPerRequest);
    this.newTokenRatio = Math.max(this.d.newTokenRatio.minimum, this.newTokenRatio - this.d.newTokenRatio.decayPerStep);
    return this.running.map((live) => ({ live, newTokens: 1, context: live.cachedTokens + live.ownedKv, prefill: false }));
  }

  private retract(tokensPerRequest: number): void {
    const order = [...this.running].sort(
      (a, b) => b.generated - a.generated || a.request.promptTokens - b.request.promptTokens,
    );
    const retracted: LiveRequest[] = [];
    while (order.length > 1 && this.available() < order.length * tokensPerRequest * RETRACT_DECODE_STEPS) {
      const victim = order.pop()!;
      this.releaseKv(victim, false, 0);
      victim.inputTokens = victim.request.promptTokens + victim.generated;
      victim.prefilled = 0;
      victim.cachedTokens = 0;
      victim.phase = 'waiting';
      retracted.push(victim);
    }
    if (retracted.length === 0) return;
    this.retractions += retracted.length;
    const keep = new Set(order);
    this.running.splice(0, this.running.length, ...this.running.filter((r) => keep.has(r)));
    this.waiting.unshift(...retracted.reverse());
    let decoded = 0;
    let maxNew = 0;
    for (const r of this.running) {
      decoded += r.generated;
      maxNew += r.request.outputTokens;
    }
    this.newTokenRatio = Math.min(1, (decoded + RETRACT_DECODE_STEPS * this.running.length) / Math.max(1, maxNew));
  }

  /**
   * Frees a request's KV. A finished request's prompt enters the radix cache (when enabled and its
   * ids are known) and stays there until evicted; an aborted or retracted one is dropped.
   */
  releaseKv(live: LiveRequest, cacheIt: boolean, now: number): void {
    const ids = live.request.promptTokenIds;
    if (cacheIt && this.d.radixCache && ids !== undefined && ids.length > 0) this.cache.insert(ids, now);
    this.used -= live.ownedKv;
    live.ownedKv = 0;
    if (live.prefix) this.cache.unlock(live.prefix.node);
    live.prefix = null;
  }

  /** Removes a request from whichever queue holds it. */
  remove(live: LiveRequest): void {
    const w = this.waiting.indexOf(live);
    if (w >= 0) this.waiting.splice(w, 1);
    const r = this.running.indexOf(live);
    if (r >= 0) this.running.splice(r, 1);
    if (this.chunked === live) this.chunked = null;
  }

  /** Back to the initial new-token ratio once the rank has drained (SGLang resets it when idle). */
  resetRatioIfIdle(): void {
    if (this.idle) this.newTokenRatio = this.d.newTokenRatio.initial;
  }
}
