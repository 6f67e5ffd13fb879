/**
 * One `/metrics` reading as the figures bench reports, whichever engine wrote it: SGLang's
 * `sglang:` names or vLLM's `vllm:` names (both of vLLM's generations of names: `gpu_cache_usage_perc`
 * and `kv_cache_usage_perc`, `gpu_prefix_cache_*` and `prefix_cache_*`, counters with or without
 * `_total`). Series of one name with several label sets (engines, DP ranks) are summed, except the
 * KV-cache usage, a fraction, which is averaged. A figure the server does not expose is null. Pure.
 */
import type { Sample } from './exposition.js';

export type MetricsDialect = 'sglang' | 'vllm';

/** A histogram summed over its label sets: cumulative counts per upper bound (ascending, `+Inf` last), sum and count. */
export interface HistogramReading {
  buckets: Array<{ le: number; count: number }>;
  sum: number;
  count: number;
}

export interface ServerSnapshot {
  dialect: MetricsDialect;
  /** Requests running and waiting in the server's queue (gauges). */
  running: number | null;
  queued: number | null;
  /** KV-cache usage, 0..1 (gauge). */
  kvUsage: number | null;
  /** Output tokens the server generated since it started (counter). */
  generationTokens: number | null;
  /** Prompt tokens looked up in the prefix cache and found there (counters: SGLang prompt / cached tokens, vLLM queries / hits). */
  cacheQueries: number | null;
  cacheHits: number | null;
  /** Time requests spent in the server's waiting queue (histogram, seconds). */
  queueTime: HistogramReading | null;
  /** SGLang's accept length gauge (accepted tokens per verify pass). */
  specAcceptLength: number | null;
  /** vLLM's speculative counters: tokens accepted and drafts verified. */
  specAccepted: number | null;
  specDrafts: number | null;
}

interface DialectNames {
  running: string[];
  queued: string[];
  kvUsage: string[];
  generationTokens: string[];
  cacheQueries: string[];
  cacheHits: string[];
  queueTime: string[];
  specAcceptLength: string[];
  specAccepted: string[];
  specDrafts: string[];
}

/** A counter's names as documented and as the Python client exposes them (`_total` appended). */
const counter = (name: string): string[] => [`${name}_total`, name];

/** Where each figure lives, first name found wins. */
const NAMES: Record<MetricsDialect, DialectNames> = {
  sglang: {
    running: ['sglang:num_running_reqs'],
    queued: ['sglang:num_queue_reqs'],
    kvUsage: ['sglang:token_usage'],
    generationTokens: counter('sglang:generation_tokens'),
    cacheQueries: counter('sglang:prompt_tokens'),
    cacheHits: counter('sglang:cached_tokens'),
    queueTime: ['sglang:queue_time_seconds'],
    specAcceptLength: ['sglang:spec_accept_length'],
    specAccepted: [],
    specDrafts: [],
  },
  vllm: {
    running: ['vllm:num_requests_running'],
    queued: ['vllm:num_requests_waiting'],
    kvUsage: ['vllm:kv_cache_usage_perc', 'vllm:gpu_cache_usage_perc'],
    generationTokens: counter('vllm:generation_tokens'),
    cacheQueries: [...counter('vllm:prefix_cache_queries'), ...counter('vllm:gpu_prefix_cache_queries')],
    cacheHits: [...counter('vllm:prefix_cache_hits'), ...counter('vllm:gpu_prefix_cache_hits')],
    queueTime: ['vllm:request_queue_time_seconds'],
    specAcceptLength: [],
    specAccepted: counter('vllm:spec_decode_num_accepted_tokens'),
    specDrafts: counter('vllm:spec_decode_num_drafts'),
  },
};

/** The engine whose names the samples use, or null when neither's. */
export function dialectOf(samples: readonly Sample[]): MetricsDialect | null {
  for (const sample of samples) {
    if (sample.name.startsWith('sglang:')) return 'sglang';
    if (sample.name.startsWith('vllm:')) return 'vllm';
  }
  return null;
}

function byName(samples: readonly Sample[]): Map<string, Sample[]> {
  const map = new Map<string, Sample[]>();
  for (const sample of samples) {
    const list = map.get(sample.name);
    if (list === undefined) map.set(sample.name, [sample]);
    else list.push(sample);
  }
  return map;
}

/** The first of `names` present: its label sets summed (or averaged), else null. */
function scalar(index: Map<string, Sample[]>, names: readonly string[], combine: 'sum' | 'mean'): number | null {
  for (const name of names) {
    const found = index.get(name);
    if (found === undefined || found.length === 0) continue;
    const total = found.reduce((sum, sample) => sum + sample.value, 0);
    return combine === 'sum' ? total : total / found.length;
  }
  return null;
}

/** The first of `names` present as a histogram (`_bucket`, `_sum`, `_count`), label sets summed per bound. */
function histogram(index: Map<string, Sample[]>, names: readonly string[]): HistogramReading | null {
  for (const name of names) {
    const bucketSamples = index.get(`${name}_bucket`);
    const sum = scalar(index, [`${name}_sum`], 'sum');
    const count = scalar(index, [`${name}_count`], 'sum');
    if (bucketSamples === undefined || sum === null || count === null) continue;
    const perBound = new Map<number, number>();
    for (const sample of bucketSamples) {
      const le = sample.labels.le === undefined ? null : sample.labels.le === '+Inf' ? Infinity : Number(sample.labels.le);
      if (le === null || Number.isNaN(le)) continue;
      perBound.set(le, (perBound.get(le) ?? 0) + sample.value);
    }
    const buckets = [...perBound.entries()].sort((a, b) => a[0] - b[0]).map(([le, c]) => ({ le, count: c }));
    return { buckets, sum, count };
  }
  return null;
}

/** The snapshot of one exposition, or null when it carries neither SGLang's nor vLLM's metrics. */
export function readSnapshot(samples: readonly Sample[]): ServerSnapshot | null {
  const dialect = dialectOf(samples);
  if (dialect === null) return null;
  const names = NAMES[dialect];
  const index = byName(samples);
  return {
    dialect,
    running: scalar(index, names.running, 'sum'),
    queued: scalar(index, names.queued, 'sum'),
    kvUsage: scalar(index, names.kvUsage, 'mean'),
    generationTokens: scalar(index, names.generationTokens, 'sum'),
    cacheQueries: scalar(index, names.cacheQueries, 'sum'),
    cacheHits: scalar(index, names.cacheHits, 'sum'),
    queueTime: histogram(index, names.queueTime),
    specAcceptLength: scalar(index, names.specAcceptLength, 'mean'),
    specAccepted: scalar(index, names.specAccepted, 'sum'),
    specDrafts: scalar(index, names.specDrafts, 'sum'),
  };
}
