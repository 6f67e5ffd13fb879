import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { contextParallelPass } from './context-parallel.js';
import { resolveInstance } from './resolve-instance.js';
import { passBreakdown, stepTime } from './step-time.js';
import type { RequestWork } from './request-work.js';

const prefillFlags = [
  '--model-path', 'DeepSeek-V3.2-Exp-W8A8', '--hardware', 'ascend-910c', '--quantization', 'modelslim',
  '--tp', '32', '--nnodes', '2', '--max-running-requests', '1', '--chunked-prefill-size', '-1', '--mem-fraction-static', '0.8',
];
const deploy = (...extra: string[]) => resolveInstance(parseLaunchArgs([...prefillFlags, ...extra]).launch);
const prompt = [[{ newTokens: 64_000, context: 0, prefill: true }]];
/** Device time of a pass before the phase's efficiency multiplier. */
const unscaled = (d: ReturnType<typeof deploy>, ranks: RequestWork[][]): number => {
  const pass = passBreakdown(d, ranks)!;
  return pass.seconds / pass.scale;
};

describe('NSA prefill context parallel', () => {
  const tp = deploy();
  const cp = deploy('--enable-nsa-prefill-context-parallel');

  test('the flag makes the whole TP group one CP group, with attention and dense MLP replicated', () => {
    assert.equal(tp.prefillContextParallel, 1);
    assert.equal(cp.prefillContextParallel, 32);
    assert.equal(cp.denseTp, 1);
    assert.ok(cp.weightBytesPerDevice > tp.weightBytesPerDevice + 10e9, 'replicated attention costs ~11 GB per die');
  });

  test('models without sparse attention ignore it, as SGLang does', () => {
    const v3 = resolveInstance(
      parseLaunchArgs(['--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8', '--enable-nsa-prefill-context-parallel']).launch,
    );
    assert.equal(v3.prefillContextParallel, 1);
  });

  test('round-robin slices keep each rank at 1/cp of the causal query-key pairs', () => {
    const pass = contextParallelPass(cp, [[{ newTokens: 6400, context: 1000, prefill: true }]]);
    assert.equal(pass.ranks.length, 32);
    assert.equal(pass.deployment.attentionTp, 1);
    assert.equal(pass.deployment.attentionDp, 32);
    const pairs = (n: number, c: number) => n * c + (n * n) / 2;
    const slice = pass.ranks[0]![0]!;
    assert.equal(slice.newTokens, 200);
    assert.ok(Math.abs(pairs(slice.newTokens, slice.context) - pairs(6400, 1000) / 32) < 1e-6);
    assert.ok(pass.kvGatherPerLayer > 0);
  });

  test('a 64K prompt runs faster split over the context than all-reduced over TP; decode stays TP', () => {
    assert.ok(unscaled(cp, prompt) < 0.8 * unscaled(tp, prompt));
    // Decode passes do not split (one token per request): only the replicated dense MLP differs.
    const decode = [[{ newTokens: 1, context: 64_000, prefill: false }]];
    const ratio = stepTime(cp, decode).gpu / stepTime(tp, decode).gpu;
    assert.ok(ratio >= 1 && ratio < 1.05, String(ratio));
  });
});
