/** What a router is started with: the launch_router flags read once (args.ts). */
import type { CircuitSettings } from './circuit-breaker.js';
import type { CacheAwareSettings, PolicyName } from './policies.js';
import type { RetrySettings } from './retry.js';

export type WorkerRole = 'prefill' | 'decode' | 'regular';

export interface WorkerSpec {
  /** Without a trailing slash. */
  url: string;
  role: WorkerRole;
  /** A prefill's bootstrap port; null when not given (the decode then uses its own). */
  bootstrapPort: number | null;
}

export interface HealthSettings {
  failureThreshold: number;
  successThreshold: number;
  timeoutMs: number;
  intervalMs: number;
  endpoint: string;
  /** No periodic checks; a worker is still checked until it first answers. */
  disabled: boolean;
  /** How long a worker may take to answer its first check before the router gives up on it. */
  startupTimeoutMs: number;
}

export interface RouterConfig {
  host: string;
  port: number;
  pdDisaggregation: boolean;
  miniLb: boolean;
  workers: WorkerSpec[];
  /** The plain pool's policy. */
  policy: PolicyName;
  prefillPolicy: PolicyName;
  decodePolicy: PolicyName;
  cacheAware: CacheAwareSettings;
  evictionIntervalMs: number;
  maxTreeSize: number;
  apiKey: string | null;
  requestTimeoutMs: number;
  retry: RetrySettings;
  circuit: CircuitSettings;
  health: HealthSettings;
  /** A second /metrics listener, as SGLang's exporter; null: the router's own port only. */
  prometheus: { host: string; port: number } | null;
  /** Flags given that change nothing here. */
  ignoredFlags: string[];
}
