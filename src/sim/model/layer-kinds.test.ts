/**
 * Each layer kind a config.json can describe, checked through the step breakdown `predict --explain`
 * prints: one decode step of 4 requests on 1000 tokens of context on one H200 (BF16 weights and KV,
 * TP 1), its math and bytes worked out here by hand from the model's published sizes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseLaunchArgs } from '../../deployment/flags/launch-flags.js';
import { explainStep } from './explain.js';
import { resolveInstance, type ResolvedInstance } from './resolve-instance.js';
import type { RequestWork } from './request-work.js';
import { passBreakdown, type PassBreakdown, type PartName } from './step-time.js';

const BATCH = 4;
const CONTEXT = 1000;
const BF16 = 2;

const deployModel = (simModel: string, ...flags: string[]): ResolvedInstance =>
  resolveInstance(parseLaunchArgs(['--model-path', `bundled/${simModel}`, '--sim-model', simModel, '--hardware', 'h200', '--tp', '1', ...flags]).launch);
const decodeStep = (): RequestWork[][] => [Array.from({ length: BATCH }, () => ({ newTokens: 1, context: CONTEXT, prefill: false }))];

function breakdown(d: ResolvedInstance): PassBreakdown {
  const pass = passBreakdown(d, decodeStep());
  assert.ok(pass !== null);
  return pass;
}

/** Asserts a part's math and bytes equal the hand-worked figures (to float rounding). */
function assertPart(pass: PassBreakdown, name: PartName, flops: number, bytes: number): void {
  const part = pass.parts[name];
  assert.ok(Math.abs(part.flops / flops - 1) < 1e-9, `${name} math: ${part.flops} vs ${flops} by hand`);
  assert.ok(Math.abs(part.bytes / bytes - 1) < 1e-9, `${name} bytes: ${part.bytes} vs ${bytes} by hand`);
}

/** The `--explain` line of a part, as the user reads it. */
function explainLine(d: ResolvedInstance, label: string): string {
  const line = explainStep(d, 'Typical decode step', decodeStep(), 1, 1).find((text) => text.trimStart().startsWith(label));
  assert.ok(line !== undefined, `no '${label}' line`);
  return line;
}

describe('layer kinds in the step breakdown, by hand', () => {
  test('Kimi Delta Attention (Kimi-Linear-48B-A3B): 20 KDA layers carry a per-head state, 7 MLA layers project queries without a latent', () => {
    const d = deployModel('kimi-linear-48b-a3b');
    const pass = breakdown(d);
    // 32 heads of 128: a 128×128 FP32 state per head; short convolutions over q, k, v (3 × 4096 channels, kernel 4) in BF16.
    const state = 32 * 128 * 128 * 4;
    const conv = 3 * (3 * 32 * 128) * BF16;
    // Each request's state is read and written once per layer; the update is 4 FLOPs per state element per token.
    assertPart(pass, 'linearAttention', 4 * 32 * 128 * 128 * BATCH * 20, 2 * BATCH * (state + conv) * 20);
    // MLA with q_lora_rank null: q straight from the 2304-wide hidden state (32 × (128 nope + 64 rope)),
    // the KV latent (512 + 64), its up-projection to 32 × (128 + 128), and the output from 32 × 128.
    const mla = 2304 * 32 * 192 + 2304 * 576 + 512 * 32 * 256 + 32 * 128 * 2304;
    // KDA: q and k, then v, the output gate and the output projection, each 2304 × 4096.
    const kda = 5 * 2304 * 4096;
    const projections = 7 * mla + 20 * kda;
    assertPart(pass, 'attentionProjections', 2 * BATCH * projections, projections * BF16);
    // MLA decode reads each request's latent cache (576 BF16 values a token) in the 7 MLA layers.
    const attended = CONTEXT + 1;
    assertPart(pass, 'attentionCore', 7 * 2 * 32 * (2 * 512 + 64) * BATCH * attended, 7 * BATCH * attended * 576 * BF16);
    assert.match(explainLine(d, 'linear attention state'), /0\.168 GFLOP\s+0\.347 GB/);
  });

  test('Mamba-2 blocks (Nemotron-3-Nano-30B-A3B): 23 SSM layers, 6 attention layers and 23 squared-ReLU expert layers, one block each', () => {
    const d = deployModel('nemotron-3-nano-30b-a3b');
    const pass = breakdown(d);
    // 64 heads of 64 channels with a 128-wide SSM state each (FP32); the convolution spans x, B and C:
    // 64·64 + 2 groups-of-8·128 = 6144 channels, kernel 4, BF16.
    const state = 64 * 64 * 128 * 4;
    const conv = 3 * (64 * 64 + 2 * 8 * 128) * BF16;
    assertPart(pass, 'linearAttention', 4 * 64 * 64 * 128 * BATCH * 23, 2 * BATCH * (state + conv) * 23);
    // Six GQA layers: 32 query heads, 2 KV heads of 128.
    const attended = CONTEXT + 1;
    const pairs = BATCH * (CONTEXT + 0.5);
    assertPart(pass, 'attentionCore', 6 * 2 * 32 * 256 * pairs, 6 * BATCH * attended * 2 * 256 * BF16);
    // Experts have up and down matrices only (2688 × 1856 each); 4 tokens pick 6 of 128.
    const expert = 2 * 2688 * 1856;
    const active = 128 * (1 - Math.pow(1 - 6 / 128, BATCH));
    assertPart(pass, 'experts', 2 * BATCH * 6 * expert * 23, active * expert * BF16 * 23);
    const shared = 2 * 2688 * 3712;
    assertPart(pass, 'sharedExpert', 2 * BATCH * shared * 23, shared * BF16 * 23);
    // No layer is a dense MLP: every MLP block is an expert block.
    assert.equal(pass.parts.denseMlp.flops, 0);
    assert.match(explainLine(d, 'linear attention state'), /0\.193 GFLOP\s+0\.393 GB/);
  });
});
