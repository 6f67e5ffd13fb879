/**
 * The waits of PD disaggregation, from the environment variables SGLang reads for them
 * (environ.py), plus the one the sim adds so tests can retry the bootstrap handshake quickly.
 */
import { UserError } from '../../../core/errors.js';

export interface PdSettings {
  /** Prefill side: seconds a room waits for its decode to connect (`SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT`, 300). */
  bootstrapTimeoutSec: number;
  /** Decode side: seconds a room waits for its KV once bootstrapped (`SGLANG_DISAGGREGATION_WAITING_TIMEOUT`, 300). */
  waitingTimeoutSec: number;
  /** Seconds between heartbeats to a prefill's bootstrap server (`SGLANG_DISAGGREGATION_HEARTBEAT_INTERVAL`, 5; SGLang never goes below 2). */
  heartbeatIntervalSec: number;
  /** Consecutive failed heartbeats that declare the prefill lost (`SGLANG_DISAGGREGATION_HEARTBEAT_MAX_FAILURE`, 2). */
  heartbeatMaxFailures: number;
  /** Tries of the bootstrap handshake before a request is aborted (SGLang: 15, not configurable). */
  handshakeTries: number;
  /**
   * Seconds between handshake tries: SGLang's 1 s, or `SERVEBENCH_SIM_BOOTSTRAP_RETRY_INTERVAL` (a
   * sim-only variable, so a test of an unreachable bootstrap server need not wait 15 s).
   */
  handshakeRetrySec: number;
  /** Timeout of one handshake request (SGLang: 5 s). */
  handshakeRequestSec: number;
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new UserError(`${name}=${raw}: expected a number of seconds ≥ 0`);
  return value;
}

/** The settings `env` asks for, SGLang's defaults otherwise. */
export function pdSettings(env: NodeJS.ProcessEnv = process.env): PdSettings {
  return {
    bootstrapTimeoutSec: seconds(env, 'SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT', 300),
    waitingTimeoutSec: seconds(env, 'SGLANG_DISAGGREGATION_WAITING_TIMEOUT', 300),
    heartbeatIntervalSec: Math.max(2, seconds(env, 'SGLANG_DISAGGREGATION_HEARTBEAT_INTERVAL', 5)),
    heartbeatMaxFailures: Math.max(1, Math.round(seconds(env, 'SGLANG_DISAGGREGATION_HEARTBEAT_MAX_FAILURE', 2))),
    handshakeTries: 15,
    handshakeRetrySec: seconds(env, 'SERVEBENCH_SIM_BOOTSTRAP_RETRY_INTERVAL', 1),
    handshakeRequestSec: 5,
  };
}
