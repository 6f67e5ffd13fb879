/**
 * One worker's circuit breaker (circuit_breaker.rs): `failureThreshold` consecutive failures open
 * it; after `timeoutMs` it lets requests through again half-open; `successThreshold` consecutive
 * successes there close it, one failure reopens it. Pure: the caller passes the time.
 */

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitSettings {
  failureThreshold: number;
  successThreshold: number;
  timeoutMs: number;
  /** --disable-circuit-breaker: never opens. */
  disabled: boolean;
}

/** Prometheus's `smg_worker_cb_state`: 0 closed, 1 open, 2 half-open. */
export const CIRCUIT_STATE_VALUE: Record<CircuitState, number> = { closed: 0, open: 1, half_open: 2 };

export class CircuitBreaker {
  private openedAt = 0;
  private failures = 0;
  private successes = 0;
  private current: CircuitState = 'closed';

  constructor(private readonly settings: CircuitSettings) {}

  /** The state at `now`: an open circuit turns half-open once its timeout has passed. */
  state(now: number): CircuitState {
    if (this.current === 'open' && now - this.openedAt >= this.settings.timeoutMs) {
      this.current = 'half_open';
      this.successes = 0;
    }
    return this.current;
  }

  /** Whether a request may go to the worker at `now`. */
  allows(now: number): boolean {
    return this.state(now) !== 'open';
  }

  record(success: boolean, now: number): void {
    if (this.settings.disabled) return;
    const state = this.state(now);
    if (success) {
      this.failures = 0;
      if (state === 'half_open' && ++this.successes >= this.settings.successThreshold) this.current = 'closed';
      return;
    }
    this.successes = 0;
    if (state === 'half_open' || ++this.failures >= this.settings.failureThreshold) {
      this.current = 'open';
      this.openedAt = now;
      this.failures = 0;
    }
  }
}
