/**
 * When and how long the router waits before trying a request again (retry.rs): the whole attempt
 * is repeated, on a newly chosen worker (pair) and with new rooms, while the answer's status is one
 * a later attempt may not get. Pure: the jitter's draw is passed in.
 */

export interface RetrySettings {
  /** Attempts in all, the first included (--retry-max-retries; 1 with --disable-retries). */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  multiplier: number;
  jitterFactor: number;
}

const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE.has(status);
}

/** The wait before attempt `attempt + 1` (attempt counts from 0): `initial × multiplier^attempt`, ± jitter, capped. */
export function backoffMs(settings: RetrySettings, attempt: number, draw: number): number {
  const base = Math.min(settings.maxBackoffMs, settings.initialBackoffMs * settings.multiplier ** attempt);
  const jitter = base * settings.jitterFactor * (2 * draw - 1);
  return Math.max(0, Math.min(settings.maxBackoffMs, base + jitter));
}
