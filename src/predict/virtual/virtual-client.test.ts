import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rowsFromLengths } from '../../bench/datasets/rows.js';
import { NumpyRandomState } from '../../core/rng.js';
import { createEngine } from '../../sim/engine/index.js';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { predictRun } from './virtual-client.js';

const engine = () => createEngine(parseLaunchArgs(['--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '2']).launch, { seed: 1 });
const rows = rowsFromLengths([100, 200, 300, 400, 500, 600], [20, 30, 40, 50, 60, 70]);

describe('predictRun', () => {
  test('every row gets a successful output with its requested length, in dataset order', () => {
    const result = predictRun(engine(), rows, { requestRate: Infinity, maxConcurrency: null, numpy: new NumpyRandomState(1) });
    assert.equal(result.outputs.length, rows.length);
    result.outputs.forEach((out, i) => {
      assert.equal(out.success, true);
      assert.equal(out.outputLen, rows[i]!.outputLen);
      assert.equal(out.promptLen, rows[i]!.promptLen);
      assert.equal(out.itl.length, out.outputLen - 1);
      assert.ok(out.ttft > 0 && out.latency > out.ttft);
      assert.ok(Math.abs(out.ttft + out.itl.reduce((a, b) => a + b, 0) - out.latency) < 1e-9);
    });
    assert.ok(Math.abs(result.durationS - Math.max(...result.outputs.map((o) => o.startTime + o.latency))) < 1e-9);
  });

  test('max concurrency 1 runs requests one after another, queueing excluded from their timing', () => {
    const result = predictRun(engine(), rows, { requestRate: Infinity, maxConcurrency: 1, numpy: new NumpyRandomState(1) });
    for (let i = 1; i < rows.length; i++) {
      const previous = result.outputs[i - 1]!;
      const current = result.outputs[i]!;
      assert.ok(current.startTime >= previous.startTime + previous.latency - 1e-12);
      assert.ok(current.queueTime > 0);
    }
    const all = predictRun(engine(), rows, { requestRate: Infinity, maxConcurrency: null, numpy: new NumpyRandomState(1) });
    assert.ok(result.durationS > all.durationS);
  });

  test('Poisson arrivals come from the numpy stream: same seed, same run', () => {
    const run = (seed: number) =>
      predictRun(engine(), rows, { requestRate: 2, maxConcurrency: null, numpy: new NumpyRandomState(seed) }).outputs.map((o) => o.startTime);
    assert.deepEqual(run(1), run(1));
    assert.notDeepEqual(run(1), run(2));
    const starts = run(1);
    // exponential(0.5) draws from seed 1 after nothing else: the second send is at the first interval.
    assert.ok(Math.abs(starts[1]! - new NumpyRandomState(1).exponential(0.5)) < 1e-9);
  });

  test('the warmup request runs first and is not reported', () => {
    const withWarmup = predictRun(engine(), rows, { requestRate: Infinity, maxConcurrency: null, numpy: new NumpyRandomState(1) });
    assert.equal(withWarmup.stats.requestsFinished, rows.length + 1);
    const none = predictRun(engine(), rows, { requestRate: Infinity, maxConcurrency: null, numpy: new NumpyRandomState(1), warmupRequests: 0 });
    assert.equal(none.stats.requestsFinished, rows.length);
  });
});
