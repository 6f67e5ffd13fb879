/**
 * The router's workers and what it knows of each: healthy or not (start-up and periodic health
 * checks, worker.rs's thresholds), its circuit breaker, its load (requests in flight through the
 * router) and its model id (from /get_server_info, else /v1/models).
 */
import { CircuitBreaker, type CircuitSettings } from './circuit-breaker.js';
import type { HealthSettings, WorkerRole, WorkerSpec } from './config.js';
import { getText } from './upstream.js';

/** Seconds between checks of a worker that has not answered yet (SGLang backs off 1..5 s). */
const STARTUP_CHECK_MS = 1000;

export class Worker {
  readonly url: string;
  readonly role: WorkerRole;
  readonly bootstrapPort: number | null;
  readonly breaker: CircuitBreaker;
  /** Registered: it answered a health check once. Until then it takes no requests. */
  active = false;
  healthy = false;
  load = 0;
  modelId = 'unknown';
  private failures = 0;
  private successes = 0;

  constructor(spec: WorkerSpec, circuit: CircuitSettings) {
    this.url = spec.url;
    this.role = spec.role;
    this.bootstrapPort = spec.bootstrapPort;
    this.breaker = new CircuitBreaker(circuit);
  }

  /** Whether a request may go to it now. */
  available(now: number): boolean {
    return this.active && this.healthy && this.breaker.allows(now);
  }

  /** A periodic check's result, counted against the thresholds. */
  recordCheck(passed: boolean, settings: HealthSettings): void {
    if (passed) {
      this.failures = 0;
      if (++this.successes >= settings.successThreshold) this.healthy = true;
    } else {
      this.successes = 0;
      if (++this.failures >= settings.failureThreshold) this.healthy = false;
    }
  }
}

/** The model id SGLang's router reads: served_model_name, else model_path, else /v1/models' first id. */
async function discoverModel(url: string, timeoutMs: number, headers: Record<string, string>): Promise<string> {
  const info = await getText(url, '/get_server_info', timeoutMs, headers);
  if (info !== null) {
    try {
      const parsed = JSON.parse(info) as { served_model_name?: unknown; model_path?: unknown };
      const name = parsed.served_model_name ?? parsed.model_path;
      if (typeof name === 'string' && name !== '') return name;
    } catch {
      // Fall through to /v1/models.
    }
  }
  const models = await getText(url, '/v1/models', timeoutMs, headers);
  try {
    const id = (JSON.parse(models ?? '') as { data?: { id?: unknown }[] }).data?.[0]?.id;
    return typeof id === 'string' ? id : 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface HealthCheckOptions {
  health: HealthSettings;
  /** Sent to the workers (the --api-key Bearer); empty without one. */
  headers: Record<string, string>;
  /** Told of each worker that never answered within --worker-startup-timeout-secs. */
  onStartupFailure: (worker: Worker) => void;
}

/** Runs the start-up and periodic checks of `workers` until stop(). */
export class HealthChecker {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly workers: readonly Worker[],
    private readonly options: HealthCheckOptions,
  ) {}

  start(): void {
    const startedAt = Date.now();
    for (const worker of this.workers) void this.activate(worker, startedAt);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
  }

  private later(ms: number, run: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private check(worker: Worker): Promise<boolean> {
    const { endpoint, timeoutMs } = this.options.health;
    return getText(worker.url, endpoint, timeoutMs, this.options.headers).then((text) => text !== null);
  }

  private async activate(worker: Worker, startedAt: number): Promise<void> {
    if (this.stopped) return;
    if (!(await this.check(worker))) {
      if (Date.now() - startedAt >= this.options.health.startupTimeoutMs) this.options.onStartupFailure(worker);
      else this.later(STARTUP_CHECK_MS, () => void this.activate(worker, startedAt));
      return;
    }
    worker.modelId = await discoverModel(worker.url, this.options.health.timeoutMs, this.options.headers);
    worker.active = true;
    worker.healthy = true;
    if (!this.options.health.disabled) this.later(this.options.health.intervalMs, () => void this.periodic(worker));
  }

  private async periodic(worker: Worker): Promise<void> {
    if (this.stopped) return;
    worker.recordCheck(await this.check(worker), this.options.health);
    this.later(this.options.health.intervalMs, () => void this.periodic(worker));
  }
}
