/**
 * Cost of computing a run's metrics, extras, block and JSONL record from request outputs:
 * - 10,000 requests × 1,024 output tokens (≈ 10 M inter-token gaps), the largest runs in the references;
 * - 200 requests × 16 tokens (the Qwen2.5 reference run).
 * Seeded synthetic outputs; prints wall time per stage.
 * Run: npx tsx bench/metrics-cost.ts
 */
import { pythonJsonDumps } from '../src/core/pyjson.js';
import { calculateExtras } from '../src/bench/metrics/extras.js';
import { calculateMetrics } from '../src/bench/metrics/calculate.js';
import { parseBenchArgs } from '../src/bench/args/parse.js';
import { resolveRunConfig } from '../src/bench/run-config.js';
import { formatResultBlock } from '../src/bench/output/block.js';
import { buildResultRecord } from '../src/bench/output/record.js';
import type { RequestOutput } from '../src/bench/types.js';

/** mulberry32: a small seeded generator, enough for synthetic timings. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function syntheticOutputs(requests: number, tokens: number): RequestOutput[] {
  const next = random(42);
  return Array.from({ length: requests }, (_, i) => {
    const itl = Array.from({ length: tokens - 1 }, () => 0.005 + next() * 0.02);
    const ttft = 0.05 + next();
    const latency = ttft + itl.reduce((a, b) => a + b, 0);
    return {
      generatedText: '', success: true, latency, ttft, itl, textChunks: [], promptLen: 1024, error: '',
      outputLen: tokens, startTime: i * 0.01, queueTime: next() * 0.1, failureCause: null,
    };
  });
}

function time<T>(label: string, work: () => T): T {
  const started = performance.now();
  const result = work();
  console.log(`  ${label}: ${(performance.now() - started).toFixed(1)} ms`);
  return result;
}

for (const [requests, tokens] of [[10_000, 1024], [200, 16]] as const) {
  const outputs = syntheticOutputs(requests, tokens);
  const args = parseBenchArgs(['--dataset-name', 'random', '--max-concurrency', '64', '--output-details']);
  console.log(`${requests} requests × ${tokens} tokens (${(requests * (tokens - 1)).toLocaleString('en-US')} gaps):`);
  const metrics = time('calculateMetrics', () =>
    calculateMetrics({ outputs, durationS: 100, backend: 'sglang', acceptLength: null, retokenizedOutputLens: outputs.map((o) => o.outputLen) }),
  );
  const extras = time('calculateExtras', () => calculateExtras({ outputs, durationS: metrics.durationS, requestRate: Infinity, maxConcurrency: 64 }));
  time('formatResultBlock', () => formatResultBlock(metrics, resolveRunConfig(args)));
  const line = time('buildResultRecord + pythonJsonDumps (with details)', () =>
    pythonJsonDumps(buildResultRecord({ args, metrics, serverInfo: null, outputs, extras })),
  );
  console.log(`  JSONL line: ${(line.length / 1e6).toFixed(1)} MB`);
}
