import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../core/errors.js';
import { getModel } from './bundled-models.js';
import type { ModelSpec } from './catalog.js';
import { modelSpecFromHfConfig } from './hf-config.js';
import { totalParams } from '../../sim/model/params.js';

const spec = (config: Record<string, unknown>) => modelSpecFromHfConfig(config, 'My-Model');

/** A small decoder's fields; each test adds what its architecture needs. */
const base = {
  num_hidden_layers: 4,
  hidden_size: 256,
  num_attention_heads: 8,
  num_key_value_heads: 2,
  intermediate_size: 512,
  vocab_size: 1000,
  max_position_embeddings: 4096,
};

/** Fails unless `run` throws one UserError line matching every pattern. */
function throwsOneLine(run: () => unknown, ...patterns: RegExp[]): void {
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof UserError, String(e));
    assert.ok(!e.message.includes('\n'), e.message);
    for (const pattern of patterns) assert.match(e.message, pattern);
    return true;
  });
}

/** The architecture fields of a spec (what a config can state), for comparing with a catalog entry. */
function architecture(m: ModelSpec): Partial<ModelSpec> {
  const { key: _key, name: _name, aliases: _aliases, source: _source, eagle3Draft: _eagle3Draft, publishedParamsB: _published, ...rest } = m;
  return rest;
}

describe('modelSpecFromHfConfig: dense GQA', () => {
  test('llama: head_dim absent means hidden / heads; untied unless the config ties', () => {
    const m = spec({ ...base, model_type: 'llama' });
    assert.deepEqual(
      [m.layers, m.hidden, m.heads, m.kvHeads, m.headDim, m.intermediate, m.denseLayers, m.vocab, m.tiedEmbeddings, m.maxContext],
      [4, 256, 8, 2, 32, 512, 4, 1000, false, 4096],
    );
    assert.equal(m.nativeQuant, 'bf16');
    assert.equal(m.experts, undefined);
    assert.equal(m.slidingWindow, undefined);
    assert.equal(spec({ ...base, model_type: 'llama', tie_word_embeddings: true }).tiedEmbeddings, true);
  });

  test('num_key_value_heads absent means plain multi-head attention', () => {
    const { num_key_value_heads: _kv, ...mha } = base;
    assert.equal(spec({ ...mha, model_type: 'llama' }).kvHeads, 8);
  });

  test('mistral: a sliding_window applies to every layer unless it spans the whole context', () => {
    assert.deepEqual(spec({ ...base, model_type: 'mistral', sliding_window: 1024 }).slidingWindow, { size: 1024, layers: 4, separatePool: false });
    assert.equal(spec({ ...base, model_type: 'mistral', sliding_window: null }).slidingWindow, undefined);
    assert.equal(spec({ ...base, model_type: 'mistral', sliding_window: 4096 }).slidingWindow, undefined);
  });

  test('qwen2 / qwen3: sliding_window counts only with use_sliding_window, from max_window_layers on', () => {
    assert.equal(spec({ ...base, model_type: 'qwen2', sliding_window: 1024, use_sliding_window: false }).slidingWindow, undefined);
    const windowed = spec({ ...base, model_type: 'qwen3', head_dim: 64, sliding_window: 1024, use_sliding_window: true, max_window_layers: 1 });
    assert.deepEqual(windowed.slidingWindow, { size: 1024, layers: 3, separatePool: false });
    assert.equal(windowed.headDim, 64);
  });

  test('the architectures list stands in for a missing model_type', () => {
    assert.equal(spec({ ...base, architectures: ['Qwen2ForCausalLM'] }).intermediate, 512);
  });
});

describe('modelSpecFromHfConfig: mixtures of experts', () => {
  test('mixtral: every layer sparse, intermediate_size is the expert size', () => {
    const m = spec({ ...base, model_type: 'mixtral', num_local_experts: 8, num_experts_per_tok: 2 });
    assert.deepEqual([m.experts, m.expertsPerToken, m.moeIntermediate, m.intermediate, m.denseLayers], [8, 2, 512, 0, 0]);
    assert.equal(m.sharedIntermediate, undefined);
  });

  test('qwen2_moe: a shared expert of its own size, mlp_only_layers stay dense', () => {
    const m = spec({
      ...base, model_type: 'qwen2_moe', num_experts: 60, num_experts_per_tok: 4, moe_intermediate_size: 128,
      shared_expert_intermediate_size: 1024, mlp_only_layers: [0],
    });
    assert.deepEqual([m.experts, m.moeIntermediate, m.sharedIntermediate, m.denseLayers, m.intermediate], [60, 128, 1024, 1, 512]);
  });

  test('qwen3_moe: decoder_sparse_step 2 leaves every other layer dense', () => {
    const m = spec({ ...base, model_type: 'qwen3_moe', num_experts: 16, num_experts_per_tok: 2, moe_intermediate_size: 64, decoder_sparse_step: 2 });
    assert.deepEqual([m.denseLayers, m.intermediate, m.sharedIntermediate], [2, 512, undefined]);
  });

  test('glm4_moe: first_k_dense_replace dense layers and n_shared_experts experts of the routed size', () => {
    const m = spec({
      ...base, model_type: 'glm4_moe', head_dim: 128, n_routed_experts: 32, num_experts_per_tok: 4, moe_intermediate_size: 96,
      n_shared_experts: 2, first_k_dense_replace: 1, num_nextn_predict_layers: 1,
    });
    assert.deepEqual([m.denseLayers, m.intermediate, m.experts, m.sharedIntermediate, m.headDim, m.mtpLayers], [1, 512, 32, 192, 128, 1]);
  });

  test('minimax_m2: 256-style local experts, all-softmax attn_type_list means no linear attention', () => {
    const m = spec({
      ...base, model_type: 'minimax_m2', head_dim: 64, num_local_experts: 16, num_experts_per_tok: 4, attn_type_list: [1, 1, 1, 1],
      quantization_config: { quant_method: 'fp8', weight_block_size: [128, 128] },
    });
    assert.deepEqual([m.experts, m.moeIntermediate, m.denseLayers, m.nativeQuant], [16, 512, 0, 'fp8']);
    assert.equal(m.linearAttention, undefined);
  });
});

describe('modelSpecFromHfConfig: MLA, sparse and linear attention', () => {
  const deepseek = {
    ...base, model_type: 'deepseek_v3', num_key_value_heads: 8, q_lora_rank: 64, kv_lora_rank: 32, qk_rope_head_dim: 16,
    qk_nope_head_dim: 32, v_head_dim: 32, n_routed_experts: 16, num_experts_per_tok: 4, moe_intermediate_size: 64,
    n_shared_experts: 1, first_k_dense_replace: 1, num_nextn_predict_layers: 1,
    quantization_config: { quant_method: 'fp8', fmt: 'e4m3', weight_block_size: [128, 128] },
  };

  test('deepseek_v3: MLA ranks, first-k-dense layers, shared expert, MTP, FP8 weights', () => {
    const m = spec(deepseek);
    assert.deepEqual(m.mla, { qLoraRank: 64, kvLoraRank: 32, ropeHeadDim: 16, nopeHeadDim: 32, vHeadDim: 32 });
    assert.deepEqual([m.denseLayers, m.sharedIntermediate, m.mtpLayers, m.nativeQuant, m.dsa], [1, 64, 1, 'fp8', undefined]);
  });

  test('kimi_k2 is the DeepSeek architecture; deepseek_v32 adds the sparse-attention indexer', () => {
    assert.deepEqual(architecture(spec({ ...deepseek, model_type: 'kimi_k2' })), architecture(spec(deepseek)));
    const v32 = spec({ ...deepseek, model_type: 'deepseek_v32', index_topk: 256, index_n_heads: 4, index_head_dim: 32 });
    assert.deepEqual(v32.dsa, { topK: 256, indexHeads: 4, indexHeadDim: 32 });
  });

  test('MLA without a query latent (q_lora_rank null) projects queries straight from the hidden state', () => {
    const direct = spec({ ...deepseek, model_type: 'deepseek_v2', q_lora_rank: null });
    assert.equal(direct.mla?.qLoraRank, 0);
    assert.equal(direct.mla?.kvLoraRank, spec(deepseek).mla?.kvLoraRank);
  });

  test('qwen3_next: full attention every full_attention_interval-th layer, Gated DeltaNet elsewhere, one MTP layer', () => {
    const next = {
      ...base, num_hidden_layers: 8, model_type: 'qwen3_next', head_dim: 64, num_experts: 32, num_experts_per_tok: 4,
      moe_intermediate_size: 64, shared_expert_intermediate_size: 64, full_attention_interval: 4, linear_num_key_heads: 4,
      linear_num_value_heads: 8, linear_key_head_dim: 32, linear_value_head_dim: 32,
    };
    const m = spec(next);
    assert.deepEqual(m.linearAttention, {
      kind: 'gated-deltanet', layers: 6, fullAttentionLayers: 2, keyHeads: 4, valueHeads: 8, keyHeadDim: 32, valueHeadDim: 32, stateBytes: 4,
      convChannels: 2 * 4 * 32 + 8 * 32, convKernel: 4,
    });
    assert.deepEqual([m.mtpLayers, m.sharedIntermediate, m.denseLayers], [1, 64, 0]);
    const listed = spec({ ...next, layer_types: ['linear_attention', 'full_attention', 'linear_attention', 'full_attention', 'linear_attention', 'linear_attention', 'linear_attention', 'full_attention'] });
    assert.equal(listed.linearAttention?.fullAttentionLayers, 3);
  });

  test('minimax_m1: lightning-attention layers (attn_type_list 0) carry a per-head state; a MiniMax-M1-shaped config totals 456B', () => {
    const m1 = spec({
      model_type: 'minimax_m1', num_hidden_layers: 80, hidden_size: 6144, num_attention_heads: 64, num_key_value_heads: 8,
      head_dim: 128, intermediate_size: 9216, num_local_experts: 32, num_experts_per_tok: 2, vocab_size: 200064,
      max_position_embeddings: 10240000, attn_type_list: Array.from({ length: 80 }, (_, i) => ((i + 1) % 8 === 0 ? 1 : 0)),
    });
    assert.deepEqual(m1.linearAttention, {
      kind: 'lightning', layers: 70, fullAttentionLayers: 10, keyHeads: 64, valueHeads: 64, keyHeadDim: 128, valueHeadDim: 128, stateBytes: 4,
      convChannels: 0, convKernel: 0,
    });
    assert.ok(Math.abs(totalParams(m1) / 456e9 - 1) < 0.01, String(totalParams(m1)));
  });
});

describe('modelSpecFromHfConfig: sliding windows', () => {
  test('gpt_oss: layer_types give the window layers, which SGLang pools apart; MXFP4 weights', () => {
    const m = spec({
      ...base, model_type: 'gpt_oss', head_dim: 64, num_local_experts: 8, num_experts_per_tok: 2, sliding_window: 128,
      layer_types: ['sliding_attention', 'full_attention', 'sliding_attention', 'full_attention'],
      quantization_config: { quant_method: 'mxfp4', modules_to_not_convert: ['model.layers.*.self_attn'] },
    });
    assert.deepEqual(m.slidingWindow, { size: 128, layers: 2, separatePool: true });
    assert.equal(m.nativeQuant, 'mxfp4');
    const withoutLayerTypes = { ...base, num_hidden_layers: 5, model_type: 'gpt_oss', num_local_experts: 8, num_experts_per_tok: 2, sliding_window: 128 };
    assert.equal(spec(withoutLayerTypes).slidingWindow?.layers, 3, 'even layers slide');
  });

  test('gemma3: read through text_config; the fields published configs omit take Gemma3TextConfig defaults', () => {
    const m = spec({
      architectures: ['Gemma3ForConditionalGeneration'], model_type: 'gemma3',
      text_config: { model_type: 'gemma3_text', hidden_size: 3840, intermediate_size: 15360, num_attention_heads: 16, num_hidden_layers: 48, num_key_value_heads: 8, sliding_window: 1024 },
      vision_config: { hidden_size: 1152, image_size: 896, intermediate_size: 4304, model_type: 'siglip_vision_model', num_attention_heads: 16, num_hidden_layers: 27, patch_size: 14, vision_use_head: false },
    });
    assert.deepEqual([m.headDim, m.vocab, m.maxContext, m.tiedEmbeddings], [256, 262208, 131072, true]);
    assert.deepEqual(m.slidingWindow, { size: 1024, layers: 40, separatePool: false });
    assert.deepEqual(architecture(m), architecture(getModel('gemma-3-12b')!));
  });

  test('a config-field error inside text_config names the nested field', () => {
    throwsOneLine(
      () => spec({ model_type: 'gemma3', text_config: { model_type: 'gemma3_text', hidden_size: 64, num_attention_heads: 4, intermediate_size: 128 } }),
      /'text_config\.num_hidden_layers' is missing/,
    );
  });
});

describe('modelSpecFromHfConfig: the layer kinds of 2026 families', () => {
  test('nemotron_h: one block per letter of hybrid_override_pattern (Mamba-2, attention, MLP, experts); an unknown letter is one line', () => {
    const nemotron = {
      ...base, model_type: 'nemotron_h', num_hidden_layers: 8, hybrid_override_pattern: 'M-M*EME*', mamba_num_heads: 8, mamba_head_dim: 32,
      n_groups: 2, ssm_state_size: 16, conv_kernel: 4, n_routed_experts: 8, num_experts_per_tok: 2, moe_intermediate_size: 64,
      moe_shared_expert_intermediate_size: 128,
    };
    const m = spec(nemotron);
    assert.deepEqual([m.layers, m.denseLayers, m.expertLayers, m.ungatedMlp], [8, 1, 2, true]);
    assert.deepEqual(m.linearAttention, {
      kind: 'mamba2', layers: 3, fullAttentionLayers: 2, keyHeads: 2, valueHeads: 8, keyHeadDim: 16, valueHeadDim: 32, stateBytes: 4,
      convChannels: 8 * 32 + 2 * 2 * 16, convKernel: 4,
    });
    throwsOneLine(() => spec({ ...nemotron, hybrid_override_pattern: 'M-X*EME*' }), /'hybrid_override_pattern' has block 'X'/);
  });

  test('llama4: experts in every interleave_moe_layer_step-th layer beside a shared expert; three layers of four attend within a chunk', () => {
    const llama4 = {
      ...base, model_type: 'llama4_text', num_hidden_layers: 8, head_dim: 32, intermediate_size: 64, intermediate_size_mlp: 256,
      num_local_experts: 4, num_experts_per_tok: 1, interleave_moe_layer_step: 2, attention_chunk_size: 1024,
    };
    const m = spec(llama4);
    assert.deepEqual([m.denseLayers, m.intermediate, m.moeIntermediate, m.sharedIntermediate], [4, 256, 64, 64]);
    assert.deepEqual(m.slidingWindow, { size: 1024, layers: 6, separatePool: true, chunked: true });
    // A chunk as long as the context never cuts one.
    assert.equal(spec({ ...llama4, attention_chunk_size: 4096 }).slidingWindow, undefined);
  });

  test('gemma4: the last num_kv_shared_layers keep no cache (and double their MLP), per-layer embeddings count as looked-up weights', () => {
    const types = ['sliding_attention', 'sliding_attention', 'full_attention', 'sliding_attention', 'sliding_attention', 'full_attention'];
    const gemma = {
      ...base, model_type: 'gemma4_text', num_hidden_layers: 6, head_dim: 32, global_head_dim: 64, num_global_key_value_heads: 1,
      attention_k_eq_v: true, layer_types: types, sliding_window: 512, num_kv_shared_layers: 2, use_double_wide_mlp: true,
      hidden_size_per_layer_input: 16, vocab_size_per_layer_input: 1000,
    };
    const m = spec(gemma);
    assert.deepEqual(m.sharedKvLayers, { window: 1, global: 1 });
    assert.equal(m.intermediate, (512 * (6 + 2)) / 6);
    assert.equal(m.lookupParams, 1000 * 6 * 16);
    assert.deepEqual(m.globalAttention, { heads: 8, kvHeads: 1, headDim: 64, valueHeadDim: 64, keyIsValue: true, outputGate: false });
    assert.equal(m.tiedEmbeddings, true);
    throwsOneLine(() => spec({ ...gemma, layer_types: [...types.slice(0, 5), 'chunked_attention'] }), /'layer_types' has 'chunked_attention', which is not modelled/);
  });

  test('mimo_v2_flash: a per-layer list that does not match the layer count is one line', () => {
    const mimo = {
      ...base, model_type: 'mimo_v2_flash', num_hidden_layers: 4, head_dim: 48, v_head_dim: 32, sliding_window_size: 128,
      swa_num_key_value_heads: 4, hybrid_layer_pattern: [0, 1, 1, 1], moe_layer_freq: [0, 1, 1, 1], n_routed_experts: 8,
      num_experts_per_tok: 2, moe_intermediate_size: 64,
    };
    const m = spec(mimo);
    assert.deepEqual([m.slidingWindow?.layers, m.slidingWindow?.attention?.kvHeads, m.valueHeadDim, m.denseLayers], [3, 4, 32, 1]);
    throwsOneLine(() => spec({ ...mimo, hybrid_layer_pattern: [0, 1, 1] }), /'hybrid_layer_pattern' has 3 entries for 4 layers/);
  });

  test('ernie4_5_moe: experts from moe_layer_start_index to moe_layer_end_index, every moe_layer_interval-th layer', () => {
    const ernie = {
      ...base, model_type: 'ernie4_5_moe', num_hidden_layers: 8, moe_num_experts: 8, moe_k: 2, moe_intermediate_size: 64,
      moe_num_shared_experts: 2, moe_layer_start_index: 1, moe_layer_end_index: 6, moe_layer_interval: 2,
    };
    const m = spec(ernie);
    // Layers 1, 3, 5 have experts.
    assert.deepEqual([m.denseLayers, m.expertsPerToken, m.sharedIntermediate], [5, 2, 128]);
  });

  test('kimi_linear: KDA layers counted from linear_attn_config, MLA without a query latent, context from model_max_length', () => {
    const kimi = {
      ...base, model_type: 'kimi_linear', num_hidden_layers: 4, q_lora_rank: null, kv_lora_rank: 64, qk_rope_head_dim: 16,
      qk_nope_head_dim: 32, v_head_dim: 32, num_experts: 8, num_experts_per_token: 2, moe_intermediate_size: 64, num_shared_experts: 1,
      first_k_dense_replace: 1, linear_attn_config: { kda_layers: [1, 2, 3], full_attn_layers: [4], num_heads: 4, head_dim: 32, short_conv_kernel_size: 4 },
      max_position_embeddings: undefined, model_max_length: 65536,
    };
    const m = spec(kimi);
    assert.deepEqual([m.linearAttention?.kind, m.linearAttention?.layers, m.linearAttention?.fullAttentionLayers, m.linearAttention?.convChannels], ['kda', 3, 1, 3 * 4 * 32]);
    assert.deepEqual([m.mla?.qLoraRank, m.maxContext, m.denseLayers, m.sharedIntermediate], [0, 65536, 1, 64]);
  });

  test('deepseek_vl_v2 (DeepSeek-OCR): a language_config with use_mla false is multi-head attention with DeepSeek experts', () => {
    const ocr = {
      model_type: 'deepseek_vl_v2',
      language_config: {
        ...base, architectures: ['DeepseekV2ForCausalLM'], use_mla: false, q_lora_rank: null, kv_lora_rank: null, n_routed_experts: 8,
        n_shared_experts: 2, num_experts_per_tok: 2, moe_intermediate_size: 64, first_k_dense_replace: 1, num_key_value_heads: 8,
      },
    };
    const m = spec(ocr);
    assert.deepEqual([m.mla, m.kvHeads, m.headDim, m.denseLayers, m.sharedIntermediate], [undefined, 8, 32, 1, 128]);
  });

  test('step3p5: sliding layers take attention_other_setting heads; moe_layers_enum lists the expert layers; layer_types may run past the stack (MTP)', () => {
    const step = {
      ...base, model_type: 'step3p5', num_hidden_layers: 4, head_dim: 32, num_attention_groups: 2, sliding_window: 512,
      layer_types: ['full_attention', 'sliding_attention', 'sliding_attention', 'sliding_attention', 'full_attention'],
      attention_other_setting: { num_attention_heads: 12, num_attention_groups: 2, head_dim: 32 }, moe_layers_enum: '2,3',
      moe_num_experts: 8, moe_top_k: 2, moe_intermediate_size: 64, share_expert_dim: 64, num_nextn_predict_layers: 1,
    };
    const m = spec(step);
    assert.deepEqual([m.kvHeads, m.slidingWindow?.layers, m.slidingWindow?.attention?.heads, m.denseLayers, m.sharedIntermediate, m.mtpLayers], [2, 3, 12, 2, 64, 1]);
    throwsOneLine(() => spec({ ...step, moe_layers_enum: '2,9' }), /'moe_layers_enum' must list layer indices below 4/);
  });

  test('qwen3_5: gated full attention and MTP layers counted as mtp_num_hidden_layers', () => {
    const qwen35 = {
      ...base, model_type: 'qwen3_5_text', num_hidden_layers: 8, head_dim: 64, full_attention_interval: 4, linear_num_key_heads: 4,
      linear_num_value_heads: 8, linear_key_head_dim: 32, linear_value_head_dim: 32, attn_output_gate: true, mtp_num_hidden_layers: 1,
    };
    const m = spec(qwen35);
    assert.deepEqual([m.attentionOutputGate, m.mtpLayers, m.linearAttention?.fullAttentionLayers, m.denseLayers], [true, 1, 2, 8]);
  });
});

describe('modelSpecFromHfConfig: published configs reproduce their catalog entries', () => {
  const published: Array<[string, Record<string, unknown>]> = [
    ['qwen3-32b', {
      architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', hidden_size: 5120, intermediate_size: 25600, num_hidden_layers: 64,
      num_attention_heads: 64, num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, max_position_embeddings: 40960,
      tie_word_embeddings: false, sliding_window: null, use_sliding_window: false, max_window_layers: 64,
    }],
    ['deepseek-v3.2', {
      architectures: ['DeepseekV32ForCausalLM'], model_type: 'deepseek_v32', hidden_size: 7168, intermediate_size: 18432,
      moe_intermediate_size: 2048, num_hidden_layers: 61, num_attention_heads: 128, num_key_value_heads: 128, n_routed_experts: 256,
      n_shared_experts: 1, num_experts_per_tok: 8, first_k_dense_replace: 3, moe_layer_freq: 1, q_lora_rank: 1536, kv_lora_rank: 512,
      qk_rope_head_dim: 64, qk_nope_head_dim: 128, v_head_dim: 128, index_topk: 2048, index_n_heads: 64, index_head_dim: 128,
      num_nextn_predict_layers: 1, vocab_size: 129280, max_position_embeddings: 163840, tie_word_embeddings: false,
      quantization_config: { activation_scheme: 'dynamic', fmt: 'e4m3', quant_method: 'fp8', weight_block_size: [128, 128] },
    }],
    ['gpt-oss-120b', {
      architectures: ['GptOssForCausalLM'], model_type: 'gpt_oss', hidden_size: 2880, intermediate_size: 2880, num_hidden_layers: 36,
      num_attention_heads: 64, num_key_value_heads: 8, head_dim: 64, num_local_experts: 128, num_experts_per_tok: 4,
      experts_per_token: 4, sliding_window: 128, vocab_size: 201088, max_position_embeddings: 131072, tie_word_embeddings: false,
      layer_types: Array.from({ length: 36 }, (_, i) => (i % 2 === 0 ? 'sliding_attention' : 'full_attention')),
      quantization_config: { quant_method: 'mxfp4', modules_to_not_convert: ['model.layers.*.self_attn', 'model.layers.*.mlp.router', 'model.embed_tokens', 'lm_head'] },
    }],
    ['gemma-3-27b', {
      architectures: ['Gemma3ForConditionalGeneration'], model_type: 'gemma3',
      text_config: {
        model_type: 'gemma3_text', head_dim: 128, hidden_size: 5376, intermediate_size: 21504, num_attention_heads: 32,
        num_hidden_layers: 62, num_key_value_heads: 16, query_pre_attn_scalar: 168, sliding_window: 1024,
        rope_scaling: { factor: 8.0, rope_type: 'linear' },
      },
      vision_config: { hidden_size: 1152, image_size: 896, intermediate_size: 4304, model_type: 'siglip_vision_model', num_attention_heads: 16, num_hidden_layers: 27, patch_size: 14, vision_use_head: false },
    }],
    ['glm-4.5', {
      architectures: ['Glm4MoeForCausalLM'], model_type: 'glm4_moe', hidden_size: 5120, intermediate_size: 12288, moe_intermediate_size: 1536,
      num_hidden_layers: 92, num_attention_heads: 96, num_key_value_heads: 8, head_dim: 128, n_routed_experts: 160, n_shared_experts: 1,
      num_experts_per_tok: 8, first_k_dense_replace: 3, num_nextn_predict_layers: 1, vocab_size: 151552, max_position_embeddings: 131072,
      tie_word_embeddings: false, partial_rotary_factor: 0.5, use_qk_norm: true,
    }],
    ['qwen3-next-80b-a3b', {
      architectures: ['Qwen3NextForCausalLM'], model_type: 'qwen3_next', hidden_size: 2048, intermediate_size: 5120, num_hidden_layers: 48,
      num_attention_heads: 16, num_key_value_heads: 2, head_dim: 256, num_experts: 512, num_experts_per_tok: 10, moe_intermediate_size: 512,
      shared_expert_intermediate_size: 512, decoder_sparse_step: 1, mlp_only_layers: [], full_attention_interval: 4,
      linear_num_key_heads: 16, linear_num_value_heads: 32, linear_key_head_dim: 128, linear_value_head_dim: 128, linear_conv_kernel_dim: 4,
      vocab_size: 151936, max_position_embeddings: 262144, tie_word_embeddings: false,
    }],
    ['qwen2.5-vl-7b', {
      architectures: ['Qwen2_5_VLForConditionalGeneration'], model_type: 'qwen2_5_vl', hidden_size: 3584, intermediate_size: 18944,
      num_hidden_layers: 28, num_attention_heads: 28, num_key_value_heads: 4, vocab_size: 152064, max_position_embeddings: 128000,
      max_window_layers: 28, sliding_window: 32768, use_sliding_window: false, tie_word_embeddings: false,
      vision_config: {
        depth: 32, hidden_act: 'silu', hidden_size: 1280, intermediate_size: 3420, num_heads: 16, out_hidden_size: 3584, patch_size: 14,
        spatial_merge_size: 2, temporal_patch_size: 2, window_size: 112, fullatt_block_indexes: [7, 15, 23, 31],
      },
    }],
    ['qwen3-vl-8b', {
      architectures: ['Qwen3VLForConditionalGeneration'], model_type: 'qwen3_vl', tie_word_embeddings: false,
      text_config: {
        model_type: 'qwen3_vl_text', hidden_size: 4096, intermediate_size: 12288, num_hidden_layers: 36, num_attention_heads: 32,
        num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, max_position_embeddings: 262144, tie_word_embeddings: false,
      },
      vision_config: {
        model_type: 'qwen3_vl', depth: 27, hidden_size: 1152, intermediate_size: 4304, num_heads: 16, num_position_embeddings: 2304,
        patch_size: 16, spatial_merge_size: 2, temporal_patch_size: 2, out_hidden_size: 4096, deepstack_visual_indexes: [8, 16, 24],
      },
    }],
  ];
  for (const [key, config] of published) {
    test(key, () => assert.deepEqual(architecture(modelSpecFromHfConfig(config, key)), architecture(getModel(key)!)));
  }
});

describe('modelSpecFromHfConfig: vision towers', () => {
  const qwen3Vl = {
    model_type: 'qwen3_vl',
    text_config: { ...base, model_type: 'qwen3_vl_text' },
    vision_config: { depth: 2, hidden_size: 64, intermediate_size: 128, patch_size: 16, deepstack_visual_indexes: [1] },
  };

  test("the processor's pixel budget comes from preprocessor_config.json, in either of its spellings", () => {
    const sized = modelSpecFromHfConfig(qwen3Vl, 'm', 'config.json', { config: { size: { shortest_edge: 1024, longest_edge: 2_000_000 } }, file: 'preprocessor_config.json' });
    assert.deepEqual(sized.vision, {
      encoders: [{ layers: 2, width: 64, intermediate: 128, gatedMlp: false }],
      // Patch embedding over two frames, then a merger (2×2 × 64 = 256 → 256 → the text's 256) and one DeepStack merger.
      otherWeights: [{ rows: 3 * 2 * 16 * 16, cols: 64 }, { rows: 256, cols: 256 }, { rows: 256, cols: 256 }, { rows: 256, cols: 256 }, { rows: 256, cols: 256 }],
      tokens: { rule: 'qwen-resize', patchSize: 16, mergeSize: 2, minPixels: 1024, maxPixels: 2_000_000 },
    });
    const pixels = modelSpecFromHfConfig(qwen3Vl, 'm', 'config.json', { config: { min_pixels: 4096, max_pixels: 1_000_000 }, file: 'preprocessor_config.json' });
    assert.deepEqual(pixels.vision?.tokens, { rule: 'qwen-resize', patchSize: 16, mergeSize: 2, minPixels: 4096, maxPixels: 1_000_000 });
    throwsOneLine(() => modelSpecFromHfConfig(qwen3Vl, 'm', 'config.json', { config: [1], file: 'preprocessor_config.json' }), /preprocessor_config\.json: not a JSON object/);
  });

  test('a tower this reader cannot size is one line naming it, never ignored; a tower missing a field is one line naming the field', () => {
    throwsOneLine(() => spec({ ...base, model_type: 'qwen2', vision_config: { model_type: 'xyz', depth: 2 } }), /'vision_config\.model_type' 'xyz' is not modelled \(the towers of qwen2_5_vl, .*deepseek_vl_v2, mistral3\); pass --sim-model/);
    throwsOneLine(() => spec({ ...base, model_type: 'qwen2', vision_config: { depth: 2 } }), /'vision_config' of model_type 'qwen2' is not modelled/);
    throwsOneLine(() => spec({ ...base, model_type: 'deepseek_vl_v2', use_mla: false, n_routed_experts: 4, moe_intermediate_size: 64, num_experts_per_tok: 2, vision_config: { model_name: 'siglip_so400m_patch14_384', width: 1152 } }), /'vision_config\.model_name' "siglip_so400m_patch14_384" is not modelled/);
    assert.equal(spec({ ...base, model_type: 'qwen2' }).vision, undefined);
    throwsOneLine(() => spec({ ...qwen3Vl, vision_config: { depth: 2, hidden_size: 64, patch_size: 16 } }), /'vision_config\.intermediate_size' is missing/);
  });
});

describe('modelSpecFromHfConfig: quantization_config', () => {
  const quant = (quantization_config: Record<string, unknown>) => spec({ ...base, model_type: 'llama', quantization_config }).nativeQuant;
  const group = (weights: Record<string, unknown>, input_activations: Record<string, unknown> | null) => ({
    quant_method: 'compressed-tensors', config_groups: { group_0: { targets: ['Linear'], weights, input_activations } },
  });

  test('maps each method to the format the performance model prices', () => {
    assert.equal(quant({ quant_method: 'fp8' }), 'fp8');
    assert.equal(quant(group({ num_bits: 8, type: 'int' }, { num_bits: 8, type: 'int' })), 'w8a8');
    assert.equal(quant(group({ num_bits: 8, type: 'float' }, { num_bits: 8, type: 'float' })), 'fp8');
    assert.equal(quant(group({ num_bits: 4, type: 'int' }, null)), 'int4');
    assert.equal(quant(group({ num_bits: 4, type: 'int' }, { num_bits: 8, type: 'int' })), 'w4a8');
    assert.equal(quant(group({ num_bits: 4, type: 'float' }, { num_bits: 4, type: 'float' })), 'nvfp4');
    assert.equal(quant({ quant_method: 'compressed-tensors', format: 'pack-quantized' }), 'int4');
    assert.equal(quant({ quant_method: 'awq', bits: 4, group_size: 128 }), 'int4');
    assert.equal(quant({ quant_method: 'gptq', bits: 4 }), 'int4');
    assert.equal(quant({ quant_method: 'mxfp4' }), 'mxfp4');
    assert.equal(quant({ quant_method: 'modelopt', quant_algo: 'NVFP4' }), 'nvfp4');
    assert.equal(quant({ quant_method: 'modelopt_fp4' }), 'nvfp4');
    assert.equal(quant({ quant_method: 'w4afp8' }), 'w4a8');
  });

  test('a format the model cannot price names the field', () => {
    throwsOneLine(() => quant({ quant_method: 'gptq', bits: 8 }), /'quantization_config\.bits' 8 is not modelled/);
    throwsOneLine(() => quant({ quant_method: 'bitsandbytes' }), /'quantization_config\.quant_method' 'bitsandbytes' is not modelled/);
    throwsOneLine(() => quant({ bits: 4 }), /'quantization_config\.quant_method' is missing/);
  });
});

describe('modelSpecFromHfConfig: configs it cannot read', () => {
  test('a missing required field: one line naming the file, the field and the fix', () => {
    const { num_attention_heads: _heads, ...headless } = base;
    assert.throws(() => modelSpecFromHfConfig({ ...headless, model_type: 'llama' }, 'x', '/models/x/config.json'), {
      message: "/models/x/config.json: 'num_attention_heads' is missing; pass a Hugging Face config.json of a decoder-only model, or --sim-model NAME",
    });
  });

  test('a malformed field, an unknown model_type, a missing model_type, a non-object', () => {
    throwsOneLine(() => spec({ ...base, model_type: 'llama', hidden_size: '256' }), /'hidden_size' must be a whole number ≥ 1, not "256"/);
    throwsOneLine(() => spec({ ...base, model_type: 'bert' }), /'model_type' 'bert' is not modelled \(llama, /, /--sim-model NAME/);
    throwsOneLine(() => spec({ ...base }), /'model_type' is missing/);
    throwsOneLine(() => spec({ ...base, model_type: 'llama', num_attention_heads: 6 }), /'head_dim' is missing/);
    throwsOneLine(() => modelSpecFromHfConfig([1, 2], 'x'), /config\.json: not a JSON object/);
  });

  test('the name given becomes the model name; the file its source', () => {
    const m = modelSpecFromHfConfig({ ...base, model_type: 'llama' }, 'Tiny-Llama', '/tmp/tiny/config.json');
    assert.deepEqual([m.name, m.key, m.source, m.aliases], ['Tiny-Llama', 'tiny-llama', '/tmp/tiny/config.json', []]);
  });
});
