import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { resolveInstance } from './resolve-instance.js';
import { expectedActiveExperts, passBreakdown, stepTime } from './step-time.js';
import type { RequestWork } from './request-work.js';

const deploy = (...args: string[]) => resolveInstance(parseLaunchArgs(args).launch);
const decode = (batch: number, context: number): RequestWork[] =>
  Array.from({ length: batch }, () => ({ newTokens: 1, context, prefill: false }));
const seconds = (d: ReturnType<typeof deploy>, ranks: RequestWork[][]) => stepTime(d, ranks).duration;

describe('expectedActiveExperts', () => {
  test('one token touches k experts; many tokens touch every local expert', () => {
    assert.ok(Math.abs(expectedActiveExperts(256, 8, 1, 1) - 8) < 1e-9);
    assert.ok(Math.abs(expectedActiveExperts(256, 8, 8, 1) - 1) < 1e-9);
    assert.ok(expectedActiveExperts(256, 8, 8, 10_000) > 31.99);
    assert.equal(expectedActiveExperts(256, 8, 1, 0), 0);
  });

  test('grows monotonically and saturates', () => {
    let previous = 0;
    for (const n of [1, 2, 4, 16, 64, 256]) {
      const active = expectedActiveExperts(128, 8, 1, n);
      assert.ok(active > previous && active <= 128);
      previous = active;
    }
  });
});

describe('stepTime', () => {
  const dense = deploy('--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '2');
  const moe = deploy('--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8');

  test('decode time grows with batch and with context', () => {
    for (const d of [dense, moe]) {
      let previous = 0;
      for (const batch of [1, 8, 64, 256]) {
        const t = seconds(d, [decode(batch, 2000)]);
        assert.ok(t >= previous, `batch ${batch}`);
        previous = t;
      }
      previous = 0;
      for (const context of [100, 1000, 10_000, 60_000]) {
        const t = seconds(d, [decode(64, context)]);
        assert.ok(t > previous, `context ${context}`);
        previous = t;
      }
    }
  });

  test('prefill of a long prompt is compute-bound and far slower than a decode step', () => {
    const prefill = seconds(dense, [[{ newTokens: 8192, context: 0, prefill: true }]]);
    assert.ok(prefill > 10 * seconds(dense, [decode(1, 8192)]));
    const twice = seconds(dense, [[{ newTokens: 16384, context: 0, prefill: true }]]);
    assert.ok(twice > 1.8 * prefill);
  });

  test('--disable-overlap-schedule adds the host work to every step instead of hiding it', () => {
    const work = [decode(8, 2000)];
    const overlapped = stepTime(dense, work);
    const serial = stepTime(deploy('--model-path', 'qwen3-32b', '--hardware', 'h100', '--tp', '2', '--disable-overlap-schedule'), work);
    assert.equal(overlapped.duration, Math.max(overlapped.gpu, overlapped.cpu));
    assert.equal(serial.duration, serial.gpu + serial.cpu);
    assert.ok(serial.cpu > 0 && serial.gpu === overlapped.gpu);
  });

  test('small dense decode is host-bound: t_0 + t_req·B', () => {
    const tiny = deploy('--model-path', 'qwen2.5-0.5b', '--hardware', 'h100');
    const t200 = stepTime(tiny, [decode(200, 40)]);
    const host = tiny.efficiency.family;
    assert.equal(t200.duration, t200.cpu);
    assert.ok(Math.abs(t200.cpu - (host.stepCpuUs + host.requestCpuUs * 200) * 1e-6) < 1e-12);
  });

  test('without CUDA graphs a decode step cannot beat the launch floor', () => {
    const graph = deploy('--model-path', 'qwen2.5-0.5b', '--hardware', 'h100');
    const eager = deploy('--model-path', 'qwen2.5-0.5b', '--hardware', 'h100', '--disable-cuda-graph');
    const floor = passBreakdown(eager, [decode(1, 100)])!;
    assert.ok(floor.launchFloor >= floor.kernels * eager.efficiency.launchUs * 1e-6 * 0.999);
    assert.equal(passBreakdown(graph, [decode(1, 100)])!.launchFloor, 0);
    assert.ok(seconds(eager, [decode(1, 100)]) >= floor.launchFloor);
    assert.ok(seconds(eager, [decode(1, 100)]) > 2 * seconds(graph, [decode(1, 100)]));
  });

  test('quantized weights read fewer bytes', () => {
    const fp8 = deploy('--model-path', 'Qwen3-32B-FP8', '--hardware', 'h100', '--tp', '2');
    assert.ok(seconds(fp8, [decode(32, 1000)]) < seconds(dense, [decode(32, 1000)]));
  });

  test('a speculative iteration costs more than one plain decode step', () => {
    const args = ['--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8'];
    const spec = deploy(...args, '--speculative-algorithm', 'NEXTN', '--speculative-num-steps', '3', '--speculative-num-draft-tokens', '4');
    assert.ok(seconds(spec, [decode(4, 1000)]) > seconds(moe, [decode(4, 1000)]));
  });

  test('DP-attention ranks step together: the slowest rank sets the time', () => {
    const dp = deploy('--model-path', 'deepseek-ai/DeepSeek-V3', '--hardware', 'h200', '--tp', '8', '--dp', '8', '--enable-dp-attention', '--ep', '8');
    const balanced = seconds(dp, Array.from({ length: 8 }, () => decode(8, 1000)));
    const skewed = seconds(dp, [decode(64, 1000), ...Array.from({ length: 7 }, () => [])]);
    assert.ok(skewed > balanced);
    assert.equal(stepTime(dp, Array.from({ length: 8 }, () => [])).gpu, 0);
  });

  describe("DeepSeek sparse attention's short-prompt prefill (SGLang's dense path on CUDA)", () => {
    const v32 = (hardware: string, ...flags: string[]) => deploy('--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', hardware, ...(flags.length > 0 ? flags : ['--tp', '8']));
    const extend = (newTokens: number, context = 0): RequestWork[][] => [[{ newTokens, context, prefill: true }]];
    const topK = v32('h200').model.dsa!.topK;
    const kernelsOf = (d: ReturnType<typeof deploy>, ranks: RequestWork[][]) => passBreakdown(d, ranks)!.kernels;

    test('a prompt within the top-k skips the indexer query half and, on Hopper and Blackwell, the sparse kernels', () => {
      for (const hardware of ['h200', 'b200']) {
        const d = v32(hardware);
        const short = passBreakdown(d, extend(topK))!;
        const long = passBreakdown(d, extend(topK + 1))!;
        assert.ok(short.kernels < long.kernels - d.model.layers, hardware);
        assert.equal(short.scale, 1, hardware);
        assert.equal(long.scale, d.efficiency.sparseAttentionScale, hardware);
        // Without the logits, a short prompt's attention does only the dense math.
        const perToken = (b: typeof short, tokens: number) => b.parts.attentionCore.flops / tokens;
        assert.ok(perToken(short, topK) < perToken(long, topK + 1), hardware);
      }
    });

    test('on other CUDA devices the query half is skipped but the attention stays sparse', () => {
      const d = v32('a100', '--tp', '16', '--nnodes', '2');
      const short = passBreakdown(d, extend(1000))!;
      assert.ok(short.kernels < kernelsOf(d, extend(topK + 1)) - d.model.layers);
      assert.equal(short.scale, d.efficiency.sparseAttentionScale);
    });

    test("dense MHA takes at most 128K tokens of a rank's sequences at once; beyond, the attention stays sparse", () => {
      const d = v32('h200');
      const prompts = (count: number): RequestWork[][] => [Array.from({ length: count }, () => ({ newTokens: 2048, context: 0, prefill: true }))];
      assert.equal(passBreakdown(d, prompts(64))!.scale, 1);
      const over = passBreakdown(d, prompts(65))!;
      assert.equal(over.scale, d.efficiency.sparseAttentionScale);
      assert.ok(over.kernels < kernelsOf(d, extend(topK + 1)) - d.model.layers);
    });

    test('a cached prefix counts: the sequence, not the new tokens, must fit in the top-k', () => {
      const d = v32('h200');
      assert.equal(kernelsOf(d, extend(100, topK)), kernelsOf(d, extend(topK + 100)));
      assert.ok(kernelsOf(d, extend(100, topK - 100)) < kernelsOf(d, extend(100, topK)));
    });

    test("the MTP layer's prefill takes the short path too; its passes in decode do not", () => {
      const d = v32('h200');
      assert.ok(passBreakdown(d, extend(500), 1)!.kernels < passBreakdown(d, extend(topK + 1), 1)!.kernels);
      assert.equal(passBreakdown(d, [decode(1, 500)], 1)!.kernels, passBreakdown(d, extend(topK + 1), 1)!.kernels);
    });

    test('decode, prefill context parallel and Ascend run the full indexer', () => {
      const d = v32('h200');
      const short = kernelsOf(d, extend(500));
      assert.equal(kernelsOf(d, [decode(1, 500)]), kernelsOf(d, extend(topK + 1)));
      assert.ok(kernelsOf(d, [decode(1, 500)]) > short);
      const contextParallel = v32('h200', '--tp', '8', '--enable-nsa-prefill-context-parallel');
      // Sliced over the CP group, the short prompt's slices would fit in the top-k; SGLang still runs the full indexer.
      assert.equal(kernelsOf(contextParallel, extend(500)), kernelsOf(contextParallel, extend(20_000)));
      const ascend = deploy('--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', 'ascend-910c', '--tp', '32', '--nnodes', '2');
      assert.equal(kernelsOf(ascend, extend(500)), kernelsOf(ascend, extend(topK + 1)));
    });
  });
});
