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

const deployModel = (simModel: string, tp = 1): ResolvedInstance =>
  resolveInstance(parseLaunchArgs(['--model-path', `bundled/${simModel}`, '--sim-model', simModel, '--hardware', 'h200', '--tp', String(tp)]).launch);
const decodeStep = (context = CONTEXT): RequestWork[][] => [Array.from({ length: BATCH }, () => ({ newTokens: 1, context, prefill: false }))];

function breakdown(d: ResolvedInstance, context = CONTEXT): PassBreakdown {
  const pass = passBreakdown(d, decodeStep(context));
  assert.ok(pass !== null);
  return pass;
}

/** Asserts a part's math and bytes equal the hand-worked figures (to float rounding). */
function assertPart(pass: PassBreakdown, name: PartName, flops: number, bytes: number): void {
  const part = pass.parts[name];
  assert.ok(Math.abs(part.flops / flops - 1) < 1e-9, `${name} math: ${part.flops} vs ${flops} by hand`);
  assert.ok(Math.abs(part.bytes / bytes - 1) < 1e-9, `${name} bytes: ${part.bytes} vs ${bytes} by hand`);
}

/** Asserts the `--explain` line of a part shows the hand-worked math and bytes, to the digits it prints. */
function assertExplained(d: ResolvedInstance, label: string, flops: number, bytes: number, context = CONTEXT): void {
  const line = explainStep(d, 'Typical decode step', decodeStep(context), 1, 1).find((text) => text.trimStart().startsWith(label));
  assert.ok(line !== undefined, `no '${label}' line`);
  const shown = /([\d.]+) GFLOP\s+([\d.]+) GB/.exec(line);
  assert.ok(shown !== null, line);
  const printed = (value: number): number => Number((value / 1e9).toFixed(value < 1e9 ? 3 : 1));
  assert.deepEqual([Number(shown[1]), Number(shown[2])], [printed(flops), printed(bytes)], line);
}

describe('layer kinds in the step breakdown, by hand', () => {
  test('Kimi Delta Attention (Kimi-Linear-48B-A3B): 20 KDA layers carry a per-head state, 7 MLA layers project queries without a latent', () => {
    const d = deployModel('kimi-linear-48b-a3b');
    const pass = breakdown(d);
    // 32 heads of 128: a 128×128 FP32 state per head; short convolutions over q, k, v (3 × 4096 channels, kernel 4) in BF16.
    const state = 32 * 128 * 128 * 4;
    const conv = 3 * (3 * 32 * 128) * BF16;
    // Each request's state is read and written once per layer; the update is 4 FLOPs per state element per token.
    const kdaFlops = 4 * 32 * 128 * 128 * BATCH * 20;
    const kdaBytes = 2 * BATCH * (state + conv) * 20;
    assertPart(pass, 'linearAttention', kdaFlops, kdaBytes);
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
    assertExplained(d, 'linear attention state', kdaFlops, kdaBytes);
  });

  test('Mamba-2 blocks (Nemotron-3-Nano-30B-A3B): 23 SSM layers, 6 attention layers and 23 squared-ReLU expert layers, one block each', () => {
    const d = deployModel('nemotron-3-nano-30b-a3b');
    const pass = breakdown(d);
    // 64 heads of 64 channels with a 128-wide SSM state each (FP32); the convolution spans x, B and C:
    // 64·64 + 2 groups-of-8·128 = 6144 channels, kernel 4, BF16.
    const state = 64 * 64 * 128 * 4;
    const conv = 3 * (64 * 64 + 2 * 8 * 128) * BF16;
    const ssmFlops = 4 * 64 * 64 * 128 * BATCH * 23;
    const ssmBytes = 2 * BATCH * (state + conv) * 23;
    assertPart(pass, 'linearAttention', ssmFlops, ssmBytes);
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
    assertExplained(d, 'linear attention state', ssmFlops, ssmBytes);
  });

  test('chunked attention (Llama-4-Scout, TP 2): 36 layers see their own 8192-token chunk, every fourth layer the whole context', () => {
    const d = deployModel('llama-4-scout-17b-16e', 2);
    const context = 10_000;
    const pass = breakdown(d, context);
    // Per device: 20 of 40 query heads, 4 of 8 KV heads of 128. Position 10000 sits 1808 tokens into its chunk.
    const flopsPerPair = 2 * 20 * (128 + 128);
    const kvPerToken = 4 * (128 + 128) * BF16;
    const inChunk = (context % 8192) + 1;
    const globalPairs = context + 0.5;
    const coreFlops = BATCH * flopsPerPair * (12 * globalPairs + 36 * inChunk);
    const coreBytes = BATCH * kvPerToken * (12 * (context + 1) + 36 * inChunk);
    assertPart(pass, 'attentionCore', coreFlops, coreBytes);
    // The chunked layers keep at most a chunk in their own pool (SGLang's hybrid SWA memory), 0.8 of the full pool's tokens.
    assert.equal(d.kvBytesPerTokenPerDevice, 48 * kvPerToken);
    assertExplained(d, 'attention (scores and KV)', coreFlops, coreBytes, context);
  });

  test('interleaved experts (Llama-4-Maverick, TP 8): 24 dense layers of 16384, 24 layers of 128 experts (top-1) beside a shared expert', () => {
    const d = deployModel('llama-4-maverick-17b-128e', 8);
    const pass = breakdown(d);
    const dense = (3 * 5120 * 16384) / 8;
    assertPart(pass, 'denseMlp', 2 * BATCH * dense * 24, dense * BF16 * 24);
    const expert = 3 * 5120 * 8192;
    const active = 128 * (1 - Math.pow(1 - 1 / 128, BATCH));
    assertPart(pass, 'experts', (2 * BATCH * expert * 24) / 8, (active * expert * BF16 * 24) / 8);
    assertPart(pass, 'sharedExpert', (2 * BATCH * expert * 24) / 8, (expert * BF16 * 24) / 8);
    assertExplained(d, 'dense MLP', 2 * BATCH * dense * 24, dense * BF16 * 24);
  });

  test('window layers of their own shape (MiMo-V2-Flash, FP8, TP 4): 39 layers of 8 KV heads see 128 tokens, 9 layers of 4 KV heads see all', () => {
    const d = deployModel('mimo-v2-flash', 4);
    const pass = breakdown(d);
    // Both kinds: 16 query heads per device, keys of 192 and values of 128.
    const flopsPerPair = 2 * 16 * (192 + 128);
    const globalKv = 1 * 320 * BF16;
    const windowKv = 2 * 320 * BF16;
    const windowPairs = 128 + 0.5;
    const coreFlops = BATCH * flopsPerPair * (9 * (CONTEXT + 0.5) + 39 * windowPairs);
    const coreBytes = BATCH * (9 * globalKv * (CONTEXT + 1) + 39 * windowKv * 129);
    assertPart(pass, 'attentionCore', coreFlops, coreBytes);
    assert.equal(d.kvBytesPerTokenPerDevice, 9 * globalKv + 39 * windowKv);
    assertExplained(d, 'attention (scores and KV)', coreFlops, coreBytes);
  });

  test('Gemma-4-31B: 50 sliding layers (16 KV heads of 256) and 10 global layers (4 KV heads of 512, V is K: no V projection)', () => {
    const d = deployModel('gemma-4-31b');
    const context = 3000;
    const pass = breakdown(d, context);
    const hidden = 5376;
    const global = hidden * 32 * 512 + hidden * 4 * 512 + 32 * 512 * hidden;
    const sliding = hidden * 32 * 256 + hidden * 16 * 512 + 32 * 256 * hidden;
    assertPart(pass, 'attentionProjections', 2 * BATCH * (10 * global + 50 * sliding), (10 * global + 50 * sliding) * BF16);
    // SGLang's pool still keeps a V buffer on the global layers.
    const globalCore = { flopsPerPair: 2 * 32 * 1024, kv: 4 * 1024 * BF16 };
    const slidingCore = { flopsPerPair: 2 * 32 * 512, kv: 16 * 512 * BF16 };
    assertPart(
      pass,
      'attentionCore',
      BATCH * (10 * globalCore.flopsPerPair * (context + 0.5) + 50 * slidingCore.flopsPerPair * (1024 + 0.5)),
      BATCH * (10 * globalCore.kv * (context + 1) + 50 * slidingCore.kv * 1025),
    );
    assertExplained(d, 'attention projections', 2 * BATCH * (10 * global + 50 * sliding), (10 * global + 50 * sliding) * BF16, context);
  });

  test('experts beside the dense MLP (Gemma-4-26B-A4B): every layer runs a GeGLU of 2112 and 8 of 128 experts of 704', () => {
    const d = deployModel('gemma-4-26b-a4b');
    const pass = breakdown(d);
    const dense = 3 * 2816 * 2112;
    assertPart(pass, 'denseMlp', 2 * BATCH * dense * 30, dense * BF16 * 30);
    const expert = 3 * 2816 * 704;
    const active = 128 * (1 - Math.pow(1 - 8 / 128, BATCH));
    assertPart(pass, 'experts', 2 * BATCH * 8 * expert * 30, active * expert * BF16 * 30);
    assertExplained(d, 'routed experts', 2 * BATCH * 8 * expert * 30, active * expert * BF16 * 30);
  });

  test('latent experts (Nemotron-3-Super, TP 4): 512 experts of 1024 → 2688 work in a 1024-wide latent the layer projects to and back', () => {
    const d = deployModel('nemotron-3-super-120b-a12b', 4);
    const pass = breakdown(d);
    const expert = 2 * 1024 * 2688;
    const active = 512 * (1 - Math.pow(1 - 22 / 512, BATCH));
    assertPart(pass, 'experts', (2 * BATCH * 22 * expert * 40) / 4, (active * expert * BF16 * 40) / 4);
    // Every token runs the full-width shared expert (4096 → 5376, up and down) and the two latent projections.
    const shared = 2 * 4096 * 5376 + 2 * 4096 * 1024;
    assertPart(pass, 'sharedExpert', (2 * BATCH * shared * 40) / 4, (shared * BF16 * 40) / 4);
    assertExplained(d, 'shared expert', (2 * BATCH * shared * 40) / 4, (shared * BF16 * 40) / 4);
  });
});
