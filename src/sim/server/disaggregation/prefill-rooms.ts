/**
 * The prefill instance's rooms: a prefill request waits until the decode instance for its room has
 * connected (SGLang's bootstrap queue: KVPoll.Bootstrapping), and a connected decode waits until
 * that room's prefill is done. Either side may come first: a router sends both at once.
 */
import type { KvSendSide } from '../../model/kv-transfer.js';

/** What a decode instance learns once a room's prefill is done: what it needs to charge the transfer. */
export interface KvReady extends KvSendSide {
  /** Prompt tokens whose KV the prefill computed and sends. */
  promptTokens: number;
}

interface Room {
  /** A prefill request holds the room. */
  prefill: boolean;
  connected: boolean;
  onConnect: (() => void)[];
  ready: KvReady | null;
  waiters: ((ready: KvReady) => void)[];
}

export class PrefillRooms {
  private readonly rooms = new Map<string, Room>();

  private room(id: string): Room {
    let room = this.rooms.get(id);
    if (room === undefined) {
      room = { prefill: false, connected: false, onConnect: [], ready: null, waiters: [] };
      this.rooms.set(id, room);
    }
    return room;
  }

  private dropIfUnused(id: string): void {
    const room = this.rooms.get(id);
    if (room !== undefined && !room.prefill && room.waiters.length === 0) this.rooms.delete(id);
  }

  /** Prefill side: resolves true once a decode connected for `id`, false after `timeoutMs` or `signal`. */
  awaitDecode(id: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const room = this.room(id);
    room.prefill = true;
    if (room.connected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (connected: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        room.onConnect = room.onConnect.filter((f) => f !== onConnect);
        resolve(connected);
      };
      const onConnect = (): void => done(true);
      const onAbort = (): void => done(false);
      const timer = setTimeout(onAbort, timeoutMs);
      signal.addEventListener('abort', onAbort);
      room.onConnect.push(onConnect);
    });
  }

  /** Prefill side: the room's KV is computed; the decode waiting for it learns so now. */
  prefillDone(id: string, ready: KvReady): void {
    const room = this.room(id);
    room.ready = ready;
    for (const waiter of room.waiters.splice(0)) waiter(ready);
  }

  /** Prefill side: its request for the room has answered or failed. */
  release(id: string): void {
    const room = this.rooms.get(id);
    if (room === undefined) return;
    room.prefill = false;
    this.dropIfUnused(id);
  }

  /**
   * Decode side: connects to the room (its prefill may start) and resolves once its KV is ready;
   * `signal` ends the wait (the decode gave up or went away).
   */
  connect(id: string, signal: AbortSignal): Promise<KvReady | null> {
    const room = this.room(id);
    room.connected = true;
    for (const f of room.onConnect.slice()) f();
    if (room.ready !== null) return Promise.resolve(room.ready);
    return new Promise((resolve) => {
      const waiter = (ready: KvReady): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(ready);
      };
      const onAbort = (): void => {
        room.waiters = room.waiters.filter((w) => w !== waiter);
        this.dropIfUnused(id);
        resolve(null);
      };
      signal.addEventListener('abort', onAbort);
      room.waiters.push(waiter);
    });
  }
}
