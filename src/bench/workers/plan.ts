/**
 * How load is spread over worker threads (pure). Requests go round-robin in arrival order, so each
 * worker's share is spread evenly over the run instead of one worker taking a burst.
 */

/** More threads than this only add message traffic: one loop handles ~100k token events/s. */
export const MAX_DEFAULT_WORKERS = 8;

/**
 * `--workers` when not given: half the cores (the server, the OS and the main thread need the
 * rest, and on a small box the server is often on the same machine), at least 1, at most 8.
 * One worker means the main thread generates the load itself, without a thread hop.
 */
export function defaultWorkerCount(cores: number): number {
  return Math.max(1, Math.min(MAX_DEFAULT_WORKERS, Math.floor(cores / 2)));
}

/** The load threads a run starts, and the one-line note saying why when it is fewer than `--workers` asked. */
export interface WorkerCount {
  workers: number;
  note: string | null;
}

/**
 * `--workers` (or the default) capped by the cores, since threads beyond them only compete for
 * the same cores and each holds its own heap (`--workers 1000` took 9.7 GB), and by the requests,
 * since a thread without a request to send is pure start-up cost.
 */
export function resolveWorkerCount(requested: number | null, cores: number, requests: number): WorkerCount {
  const workers = Math.max(1, Math.min(requested ?? defaultWorkerCount(cores), cores, requests));
  if (requested === null || requested <= workers) return { workers, note: null };
  const reason = requested > cores ? `this machine has ${cores} cores` : `the run has ${requests} requests`;
  return { workers, note: `note: --workers ${requested} capped to ${workers}: ${reason}` };
}

/** The worker that sends the request arriving `ordinal`-th (0-based) of a run. */
export function workerForArrival(ordinal: number, workers: number): number {
  return ordinal % workers;
}
