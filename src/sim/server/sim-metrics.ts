/**
 * `GET /metrics` under SGLang's metric names (`sglang:*`, label `model_name`), fed by every
 * delivered emission on the engine clock, so the histograms describe the simulated timeline.
 */
import type { EngineStats, TokenEmission } from '../types.js';
import { family, formatValue, Histogram, labelValue } from './prometheus.js';

/** SGLang's default buckets (metrics_collector.py). */
const TTFT_BUCKETS = [0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400];
const ITL_BUCKETS = [
  0.002, 0.004, 0.006, 0.008, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.06, 0.08, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8,
];
/** SGLang's `sglang:queue_time_seconds` buckets (metrics/collector.py). */
const QUEUE_BUCKETS = [
  0, 0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900,
  1000, 1200, 1400, 1600, 1800, 2000, 2500, 3000,
];
const E2E_BUCKETS = [0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400, 600, 1200, 1800, 2400];

interface Timeline {
  arrival: number;
  firstTime: number | null;
  lastTime: number;
}

export class SimMetrics {
  private readonly labels: string;
  private readonly timelines = new Map<string, Timeline>();
  private readonly ttft = new Histogram(TTFT_BUCKETS);
  private readonly itl = new Histogram(ITL_BUCKETS);
  private readonly tpot = new Histogram(ITL_BUCKETS);
  private readonly e2e = new Histogram(E2E_BUCKETS);
  private readonly queue = new Histogram(QUEUE_BUCKETS);
  private requestsTotal = 0;
  private abortedTotal = 0;
  private lastScrape: { time: number; generated: number } | null = null;

  constructor(modelName: string) {
    this.labels = `model_name="${labelValue(modelName)}"`;
  }

  /** A request entered the engine at engine time `arrival`. */
  begin(requestId: string, arrival: number): void {
    this.timelines.set(requestId, { arrival, firstTime: null, lastTime: arrival });
    this.requestsTotal += 1;
  }

  /** A chunk was delivered. */
  observe(emission: TokenEmission): void {
    const timeline = this.timelines.get(emission.requestId);
    if (timeline === undefined) return;
    if (timeline.firstTime === null) {
      timeline.firstTime = emission.time;
      this.ttft.observe(emission.time - timeline.arrival);
      // The scheduler's own queueing time (engine seconds), as SGLang observes it once per request.
      if (emission.queueTime !== undefined) this.queue.observe(emission.queueTime);
    } else if (emission.tokens > 0) {
      this.itl.observe((emission.time - timeline.lastTime) / emission.tokens, emission.tokens);
    }
    timeline.lastTime = emission.time;
    if (emission.finished) {
      this.e2e.observe(emission.time - timeline.arrival);
      if (emission.completionTokens > 1) {
        this.tpot.observe((emission.time - timeline.firstTime) / (emission.completionTokens - 1));
      }
      this.timelines.delete(emission.requestId);
    }
  }

  /** The client went away before the request finished. */
  abort(requestId: string): void {
    if (this.timelines.delete(requestId)) this.abortedTotal += 1;
  }

  /** The exposition text for the current engine stats at engine time `now`. */
  render(stats: EngineStats, now: number): string {
    const l = this.labels;
    const previous = this.lastScrape;
    const throughput =
      previous !== null && now > previous.time ? (stats.generationTokensTotal - previous.generated) / (now - previous.time) : 0;
    this.lastScrape = { time: now, generated: stats.generationTokensTotal };
    const gauge = (name: string, help: string, value: number): string => family(name, 'gauge', help, [`${name}{${l}} ${formatValue(value)}`]);
    const counter = (name: string, help: string, value: number): string => family(name, 'counter', help, [`${name}{${l}} ${formatValue(value)}`]);
    const hitRate = stats.promptTokensTotal > 0 ? stats.cachedTokensTotal / stats.promptTokensTotal : 0;
    const parts = [
      gauge('sglang:num_running_reqs', 'The number of running requests.', stats.numRunning),
      gauge('sglang:num_queue_reqs', 'The number of requests in the waiting queue.', stats.numWaiting),
      gauge('sglang:num_used_tokens', 'The number of used tokens.', Math.round(stats.kvUsage * stats.kvCapacityTokens)),
      gauge('sglang:max_total_num_tokens', 'Maximum total number of tokens in the KV cache pool.', stats.kvCapacityTokens),
      gauge('sglang:token_usage', 'The token usage.', stats.kvUsage),
      gauge('sglang:gen_throughput', 'The generation throughput (token/s).', throughput),
      gauge('sglang:cache_hit_rate', 'The prefix cache hit rate.', hitRate),
      gauge('sglang:spec_accept_length', 'The average acceptance length of speculative decoding.', stats.avgSpecAcceptLength ?? 0),
      counter('sglang:prompt_tokens_total', 'Number of prefill tokens processed.', stats.promptTokensTotal),
      counter('sglang:generation_tokens_total', 'Number of generation tokens processed.', stats.generationTokensTotal),
      counter('sglang:cached_tokens_total', 'Number of cached prompt tokens.', stats.cachedTokensTotal),
      counter('sglang:num_requests_total', 'Number of requests processed.', this.requestsTotal),
      counter('sglang:num_aborted_requests_total', 'Number of requests aborted.', this.abortedTotal),
      family('sglang:time_to_first_token_seconds', 'histogram', 'Histogram of time to first token in seconds.', this.ttft.lines('sglang:time_to_first_token_seconds', l)),
      family('sglang:inter_token_latency_seconds', 'histogram', 'Histogram of inter-token latency in seconds.', this.itl.lines('sglang:inter_token_latency_seconds', l)),
      family('sglang:time_per_output_token_seconds', 'histogram', 'Histogram of time per output token in seconds.', this.tpot.lines('sglang:time_per_output_token_seconds', l)),
      family('sglang:e2e_request_latency_seconds', 'histogram', 'Histogram of End-to-end request latency in seconds', this.e2e.lines('sglang:e2e_request_latency_seconds', l)),
      family('sglang:queue_time_seconds', 'histogram', 'Histogram of queueing time in seconds.', this.queue.lines('sglang:queue_time_seconds', l)),
    ];
    return parts.join('\n') + '\n';
  }
}
