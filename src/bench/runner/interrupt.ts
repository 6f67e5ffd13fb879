/**
 * Stopping a measured run from outside. The first SIGINT (Ctrl-C), SIGTERM (`kill`, a service or
 * container stop) or SIGHUP (the terminal closed) stops new sends and gives in-flight requests a
 * grace period before aborting them, so the block, the JSONL record and the catalog run still
 * cover what completed; the command then exits with 128 + the signal's number, the status a shell
 * reports for a process that signal ended. A second signal of any of them exits at once.
 */
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** The signals that stop a run the way Ctrl-C does. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit status of a command a signal stopped: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/** The signal as the operator knows it, for messages. */
export function signalName(signal: StopSignal): string {
  return signal === 'SIGINT' ? 'Ctrl-C' : signal;
}

/**
 * Catches the stop signals from construction until `dispose()`; created before the measured phase
 * and kept until its results are saved, so a signal while saving does not lose them either.
 */
export class InterruptWatch {
  private received: StopSignal | null = null;
  private readonly stopHandlers = new Set<(signal: StopSignal) => void>();
  private readonly listeners = STOP_SIGNALS.map((signal) => ({ signal, listener: (): void => this.receive(signal) }));

  constructor() {
    for (const { signal, listener } of this.listeners) process.on(signal, listener);
  }

  /** The first stop signal received, or null. */
  get signal(): StopSignal | null {
    return this.received;
  }

  /** Calls `stop` on the first signal (at once if it already came); returns the unsubscribe function. */
  onStop(stop: (signal: StopSignal) => void): () => void {
    if (this.received !== null) stop(this.received);
    else this.stopHandlers.add(stop);
    return () => this.stopHandlers.delete(stop);
  }

  /** Waits `seconds`, or less when a stop signal comes first (at once if one already came). */
  async pause(seconds: number): Promise<void> {
    if (seconds <= 0 || this.received !== null) return;
    const stop = new AbortController();
    const unsubscribe = this.onStop(() => stop.abort());
    try {
      await sleep(seconds * 1000, undefined, { signal: stop.signal });
    } catch (error) {
      if (!stop.signal.aborted) throw error;
    } finally {
      unsubscribe();
    }
  }

  /** Acts as if `signal` came (a sharded run's coordinator passing its operator's on); ignored once one has come. */
  raise(signal: StopSignal): void {
    if (this.received === null) this.receive(signal);
  }

  dispose(): void {
    for (const { signal, listener } of this.listeners) process.off(signal, listener);
  }

  private receive(signal: StopSignal): void {
    if (this.received !== null) {
      process.exit(signalExitCode(signal));
    } else {
      this.received = signal;
      for (const stop of this.stopHandlers) stop(signal);
      this.stopHandlers.clear();
    }
  }
}
