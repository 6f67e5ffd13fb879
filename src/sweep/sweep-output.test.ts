import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBenchArgs } from '../bench/args/parse.js';
import { resolveRunConfig } from '../bench/run-config.js';
import { configAtLoad } from './load-config.js';
import { parseSlo } from './slo.js';
import type { SweepPoint } from './sweep.js';
import { sweepJson } from './sweep-json.js';

function point(load: number, throughput: number, tpot: number, met: boolean | null): SweepPoint {
  const slo = parseSlo('tpot=10ms');
  return {
    load, runId: `run-${load}`, outputs: [], durationSeconds: 1,
    metrics: { output_throughput: throughput, mean_tpot_ms: tpot, mean_ttft_ms: 100 * load },
    verdict: met === null ? null : { met, targets: [{ target: slo.targets[0]!, observedMs: tpot, met }] },
    goodput: met === null ? null : { goodRequests: 1, requestGoodput: 0.5, goodFraction: 1 },
  };
}

describe('configAtLoad', () => {
  const config = resolveRunConfig(parseBenchArgs(['--num-prompts', '100', '--max-concurrency', '3', '--request-rate', '7']));
  test('concurrency: sets the concurrency limit, and the prompt count when prompts per load are given', () => {
    const at = configAtLoad(config, 'concurrency', 16, null);
    assert.deepEqual([at.load.maxConcurrency, at.dataset.numPrompts], [16, 100]);
    assert.equal(configAtLoad(config, 'concurrency', 16, 4).dataset.numPrompts, 64);
    assert.equal(config.load.maxConcurrency, 3, 'the base config is not changed');
    assert.ok(Object.isFrozen(at.load) && Object.isFrozen(at.dataset));
  });
  test('rate: sets the request rate and keeps the rest', () => {
    const at = configAtLoad(config, 'rate', 2.5, 4);
    assert.deepEqual([at.load.requestRate, at.load.maxConcurrency, at.dataset.numPrompts], [2.5, 3, 100]);
  });
});

describe('sweepJson', () => {
  test('points by load with metrics, goodput and verdicts; peak and knee', () => {
    const json = sweepJson({ mode: 'predict', kind: 'concurrency', cards: 2, slo: parseSlo('tpot=10ms'), points: [point(4, 300, 12, false), point(1, 100, 5, true), point(2, 200, 8, true)], runs: 3 });
    assert.deepEqual((json.points as Array<{ load: number }>).map((p) => p.load), [1, 2, 4]);
    assert.equal(json.peak_load, 4);
    assert.equal(json.knee_load, 2);
    assert.equal(json.slo, 'mean-tpot=10ms');
    assert.deepEqual((json.points as Array<Record<string, unknown>>)[0], {
      load: 1, run_id: 'run-1', metrics: { output_throughput: 100, mean_tpot_ms: 5, mean_ttft_ms: 100 },
      goodput: { request_goodput: 0.5, good_requests: 1, good_fraction: 1 }, slo_met: true, slo_observed_ms: { 'mean-tpot': 5 },
    });
    const infinite = sweepJson({ mode: 'server', kind: 'rate', cards: 1, slo: null, points: [point(Number.POSITIVE_INFINITY, 1, 1, null)], runs: 1 });
    assert.equal(infinite.peak_load, 'inf');
    assert.equal(infinite.knee_load, null);
  });
});
