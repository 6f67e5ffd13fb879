/**
 * The decode instance's side of PD disaggregation, over loopback HTTP to each prefill's bootstrap
 * server: the handshake (SGLang's first `GET /route`, retried), the wait for a room's KV (the sim's
 * `GET /servebench/kv_ready`, long-polled), and the heartbeat that declares a prefill instance lost.
 * Every wait ends: in the transfer's time, or in SGLang's failure for that room.
 */
import type { ResolvedInstance } from '../../model/resolve-instance.js';
import { kvTransferSecondsFrom } from '../../model/kv-transfer.js';
import { bootstrapAddress, type BootstrapTarget } from './bootstrap-fields.js';
import { KV_READY_ROUTE } from './bootstrap-server.js';
import { decodeHandshakeFailed, decodeWaitingTimeout, PdFailure, prefillLost } from './pd-failures.js';
import type { PdSettings } from './pd-settings.js';
import type { KvReady } from './prefill-rooms.js';

const LAYOUT_QUERY = '/route?prefill_dp_rank=-1&prefill_cp_rank=-1&target_tp_rank=-1&target_pp_rank=-1';

/** A request's room waiting for its KV; `fail` ends its wait with SGLang's failure. */
interface Waiting {
  rid: string;
  room: string;
  fail(failure: Error): void;
}

/** The rooms waiting on one prefill instance, and the heartbeat that watches it while any wait. */
interface Watched {
  waiting: Set<Waiting>;
  failures: number;
  timer: NodeJS.Timeout;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

async function answers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

export class KvReceiver {
  /** Handshakes done or under way, per bootstrap address (SGLang asks each address once). */
  private readonly handshakes = new Map<string, Promise<boolean>>();
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly settings: PdSettings,
    private readonly ownBootstrapPort: number,
    private readonly decode: ResolvedInstance,
  ) {}

  /**
   * Waits for `target`'s KV and returns the seconds its transfer takes from now (the prefill has
   * just finished); rejects with SGLang's failure, or with `signal`'s reason once the client left.
   */
  async receive(target: BootstrapTarget, rid: string, signal: AbortSignal): Promise<number> {
    const address = bootstrapAddress(target, this.ownBootstrapPort);
    if (!(await this.handshake(address, signal))) {
      signal.throwIfAborted();
      throw decodeHandshakeFailed(rid, target.room);
    }
    const ready = await this.awaitKv(address, target.room, rid, signal);
    return kvTransferSecondsFrom(ready, this.decode, ready.promptTokens);
  }

  private handshake(address: string, signal: AbortSignal): Promise<boolean> {
    let done = this.handshakes.get(address);
    if (done === undefined) {
      done = this.tryHandshake(address, signal);
      this.handshakes.set(address, done);
      // A failed handshake is tried afresh by the next request for that address.
      void done.then((ok) => {
        if (!ok) this.handshakes.delete(address);
      });
    }
    return done;
  }

  private async tryHandshake(address: string, signal: AbortSignal): Promise<boolean> {
    const { handshakeTries, handshakeRetrySec, handshakeRequestSec } = this.settings;
    for (let attempt = 1; attempt <= handshakeTries && !signal.aborted; attempt++) {
      if (await answers(`http://${address}${LAYOUT_QUERY}`, handshakeRequestSec * 1000)) return true;
      if (attempt < handshakeTries) await sleep(handshakeRetrySec * 1000, signal);
    }
    return false;
  }

  private awaitKv(address: string, room: string, rid: string, signal: AbortSignal): Promise<KvReady> {
    return new Promise((resolve, reject) => {
      const poll = new AbortController();
      const watch = this.watch(address);
      const finish = (failure: Error | null, ready?: KvReady): void => {
        clearTimeout(timer);
        poll.abort();
        signal.removeEventListener('abort', onGone);
        watch.waiting.delete(waiting);
        if (watch.waiting.size === 0) this.unwatch(address);
        if (failure === null) resolve(ready!);
        else reject(failure);
      };
      const waiting: Waiting = { rid, room, fail: (failure) => finish(failure) };
      const onGone = (): void => finish(signal.reason as Error);
      const timer = setTimeout(() => finish(decodeWaitingTimeout(rid, room, this.settings.waitingTimeoutSec)), this.settings.waitingTimeoutSec * 1000);
      signal.addEventListener('abort', onGone);
      watch.waiting.add(waiting);
      const ask = (): void => {
        fetch(`http://${address}${KV_READY_ROUTE}?bootstrap_room=${room}`, { signal: poll.signal })
          .then(async (response) => {
            if (!response.ok) throw new Error(await response.text());
            const body = (await response.json()) as Record<string, number>;
            finish(null, {
              promptTokens: body['prompt_tokens']!,
              sentBytesPerToken: body['sent_bytes_per_token']!,
              linkBytesPerSec: body['link_bytes_per_sec']!,
              latencySec: body['latency_sec']!,
            });
          })
          // A poll cut off (a prefill that went away, the HTTP client's own timeout) is not a failure:
          // the heartbeat and the waiting timeout decide, as in SGLang; until then the room is asked again.
          .catch(() => {
            if (!poll.signal.aborted) setTimeout(ask, this.settings.handshakeRetrySec * 1000);
          });
      };
      ask();
    });
  }

  /** The heartbeat group of `address`, started with its first waiting room. */
  private watch(address: string): Watched {
    let watched = this.watched.get(address);
    if (watched !== undefined) return watched;
    const { heartbeatIntervalSec, heartbeatMaxFailures } = this.settings;
    const group: Watched = {
      waiting: new Set(),
      failures: 0,
      timer: setInterval(() => {
        void answers(`http://${address}/health`, heartbeatIntervalSec * 1000).then((ok) => {
          group.failures = ok ? 0 : group.failures + 1;
          if (group.failures < heartbeatMaxFailures) return;
          // Every room still waiting on that prefill fails with its own request's message.
          for (const waiting of [...group.waiting]) waiting.fail(prefillLost(waiting.rid, waiting.room, address));
        });
      }, heartbeatIntervalSec * 1000),
    };
    this.watched.set(address, group);
    return group;
  }

  private unwatch(address: string): void {
    const watched = this.watched.get(address);
    if (watched === undefined) return;
    clearInterval(watched.timer);
    this.watched.delete(address);
  }

  /** Ends every wait (server shutdown). */
  close(): void {
    for (const watched of [...this.watched.values()]) {
      for (const waiting of [...watched.waiting]) waiting.fail(new PdFailure('the decode instance is shutting down'));
    }
  }
}
