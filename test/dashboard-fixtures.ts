/**
 * Catalog contents for the dashboard and plot tests: the published reference logs ingested through
 * the catalog's reader, plus runs built here with per-request records (seeded, so every test sees
 * the same numbers), one of them with markup in every text field a log could carry.
 */
import { openCatalog, requestTtftsMs, requestTpotsMs, type RequestRecord, type RunInput } from '../src/catalog/index.js';
import { readRunsFromText } from '../src/catalog/ingest/read-runs.js';
import { mean } from '../src/core/stats.js';
import { perSecondTimeline } from '../src/bench/metrics/per-second.js';
import { listReferenceLogs, readReferenceLog, referenceLogPath } from './helpers/reference-logs.js';


/** Markup that must reach the browser as text, never as elements or script. */
export const HOSTILE_MODEL = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">evil-model';

/** A small LCG: deterministic uniform numbers in [0, 1). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Requests of a closed-loop run with `concurrency` slots: each starts when a slot frees up. */
export function closedLoopRequests(count: number, concurrency: number, seed: number, itlMs: number): RequestRecord[] {
  const random = lcg(seed);
  const slots = new Array<number>(concurrency).fill(0);
  const requests: RequestRecord[] = [];
  for (let i = 0; i < count; i++) {
    const slot = slots.indexOf(Math.min(...slots));
    const startTime = slots[slot]!;
    const outputLen = 20 + Math.floor(random() * 60);
    const ttft = 0.05 + random() * 0.25;
    const itl = Array.from({ length: outputLen - 1 }, () => (itlMs * (0.8 + random() * 0.5)) / 1000);
    const latency = ttft + itl.reduce((a, b) => a + b, 0);
    slots[slot] = startTime + latency;
    requests.push({ startTime, ttft, latency, itl, promptLen: 512, outputLen, success: true, error: '', cause: null });
  }
  return requests;
}

/** bench_serving-style metrics of synthetic requests (the subset the dashboard shows). */
function metricsOf(requests: readonly RequestRecord[], concurrency: number): RunInput['metrics'] {
  const duration = Math.max(...requests.map((r) => r.startTime! + r.latency!));
  const output = requests.reduce((n, r) => n + r.outputLen!, 0);
  const timeline = perSecondTimeline(requests);
  return {
    backend: 'sglang',
    request_rate: Infinity,
    max_concurrency: concurrency,
    duration,
    completed: requests.length,
    total_input_tokens: requests.length * 512,
    total_output_tokens: output,
    request_throughput: requests.length / duration,
    output_throughput: output / duration,
    mean_e2e_latency_ms: mean(requests.map((r) => r.latency! * 1000)),
    mean_ttft_ms: mean(requestTtftsMs(requests)),
    mean_tpot_ms: mean(requestTpotsMs(requests)),
    mean_itl_ms: mean(requests.flatMap((r) => r.itl.map((x) => x * 1000))),
    max_output_tokens_per_s: Math.max(...timeline.outputTokens),
    max_concurrent_requests: Math.max(...timeline.inFlight),
  };
}

/** A recorded run with per-request records. */
export function syntheticRun(name: string, model: string, labels: Record<string, string>, itlMs: number, seed: number, warnings: string[] = []): RunInput {
  const concurrency = 16;
  const requests = closedLoopRequests(96, concurrency, seed, itlMs);
  return {
    source: { kind: 'bench', file: `${name}.jsonl`, contentHash: `fixture-${name}`, title: name },
    metrics: metricsOf(requests, concurrency),
    args: { backend: 'sglang', model, dataset_name: 'random', random_input_len: 512, random_output_len: 80, max_concurrency: concurrency, num_prompts: 96 },
    model,
    startedAt: '2026-11-20T10:00:00.000Z',
    toolVersion: 'servebench 0.1.0',
    labels,
    warnings,
    requests,
  };
}

export interface SeededCatalog {
  /** Ids of the runs built here. */
  fast: string;
  slow: string;
  hostile: string;
  /** Ids of the ingested reference runs. */
  reference: string[];
}

/** Fills the catalog at `path` with the reference logs and three runs with per-request records. */
export function seedCatalog(path: string): SeededCatalog {
  const catalog = openCatalog(path);
  try {
    const reference = listReferenceLogs().flatMap((f) => readRunsFromText(readReferenceLog(f), referenceLogPath(f)));
    const referenceIds = catalog.recordRuns(reference).map((o) => o.id);
    const [fast, slow, hostile] = catalog.recordRuns([
      syntheticRun('h100-fast', 'Qwen/Qwen3-8B', { hardware: 'h100', cards: '1' }, 12, 1),
      syntheticRun('h100-slow', 'Qwen/Qwen3-8B', { hardware: 'h100', cards: '1' }, 30, 2),
      syntheticRun('hostile', HOSTILE_MODEL, { hardware: '<b>bold-hw</b>', cards: '2' }, 20, 3, ['<script>window.__pwned = 3</script> in a warning']),
    ]);
    return { fast: fast!.id, slow: slow!.id, hostile: hostile!.id, reference: referenceIds };
  } finally {
    catalog.close();
  }
}
