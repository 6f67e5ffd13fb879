import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { resolveInstance } from './resolve-instance.js';
import { explainStep } from './explain.js';
import { stepTime } from './step-time.js';

const deploy = (...args: string[]) => resolveInstance(parseLaunchArgs(args).launch);
const decode = (batch: number, context: number) => Array.from({ length: batch }, () => ({ newTokens: 1, context, prefill: false }));

describe('explainStep', () => {
  test('names what a MoE decode step is made of and ends with the step time the engine uses', () => {
    const d = deploy('--model-path', 'deepseek-ai/DeepSeek-R1', '--hardware', 'b200', '--tp', '8');
    const ranks = [decode(32, 2000)];
    const lines = explainStep(d, 'Typical decode step', ranks, 100, 0.9);
    const text = lines.join('\n');
    assert.match(lines[0]!, /^Typical decode step: 32 requests, 1 token each on 2000 tokens of context \(100 such steps, 90% of the instance's time\)$/);
    for (const part of ['attention projections', 'attention \\(scores and KV\\)', 'routed experts', 'shared expert', 'LM head', 'collectives', 'kernel latency', 'per-expert overhead']) {
      assert.match(text, new RegExp(part));
    }
    assert.doesNotMatch(text, /host floor of an eager pass/);
    const step = Number(/^ {2}step\s+([\d.]+) ms$/m.exec(text)![1]);
    assert.ok(Math.abs(step - stepTime(d, ranks).duration * 1000) < 0.01);
  });

  test('an extend step is eager (its host floor shows), a speculative one adds its draft passes', () => {
    const d = deploy('--model-path', 'Qwen/Qwen3-32B', '--hardware', 'h100', '--tp', '2', '--speculative-algorithm', 'EAGLE3', '--speculative-num-steps', '3', '--speculative-num-draft-tokens', '4');
    const prefill = explainStep(d, 'Typical prefill step', [[{ newTokens: 4096, context: 0, prefill: true }]], 10, 0.3).join('\n');
    assert.match(prefill, /4096 new tokens each/);
    assert.match(prefill, /host floor of an eager pass/);
    const verify = explainStep(d, 'Typical decode step', [decode(8, 1000)], 10, 0.7).join('\n');
    assert.match(verify, /8 requests, 4 tokens each/);
    assert.match(verify, /draft passes \(4 one-layer passes \+ fixed costs\)/);
    assert.match(verify, /speculative bookkeeping/);
  });

  test("a sparse-attention model's steps say how the indexer ran; other models' say nothing of it", () => {
    const d = deploy('--model-path', 'deepseek-ai/DeepSeek-V3.2', '--hardware', 'h200', '--tp', '8');
    const extend = (newTokens: number) => explainStep(d, 'Typical prefill step', [[{ newTokens, context: 0, prefill: true }]], 1, 0.1).join('\n');
    assert.match(extend(1000), /indexer keys only \(every sequence within its top-k\), dense MHA/);
    assert.match(extend(4000), /indexer in full \(queries, logits, top-k\), sparse attention/);
    assert.match(explainStep(d, 'Typical decode step', [decode(8, 1000)], 1, 0.9).join('\n'), /indexer in full/);
    const r1 = deploy('--model-path', 'deepseek-ai/DeepSeek-R1', '--hardware', 'b200', '--tp', '8');
    assert.doesNotMatch(explainStep(r1, 'Typical decode step', [decode(8, 1000)], 1, 0.9).join('\n'), /indexer/);
  });
});
