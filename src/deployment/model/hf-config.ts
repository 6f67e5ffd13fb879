/**
 * A Hugging Face config.json → ModelSpec: the architecture SGLang reads from a local model directory.
 * Pure: the caller reads the file. A field that is missing, malformed or names something the performance
 * model cannot represent ends in one UserError line naming the file, the field and the fix.
 */
import { UserError } from '../../core/errors.js';
import type { LinearAttentionConfig, MlaConfig, ModelSpec, QuantName, SlidingWindowConfig } from './catalog.js';
import { ConfigReader, FIX, isObject, UNSUPPORTED_FIX, type ConfigObject } from './hf-config-reader.js';
import { visionTower } from './hf-vision.js';

type Architecture = Omit<ModelSpec, 'key' | 'name' | 'aliases' | 'nativeQuant' | 'source' | 'eagle3Draft' | 'publishedParamsB'>;

/** Softmax attention with grouped KV heads; `head_dim` absent means hidden / heads (as transformers does). */
function gqaAttention(r: ConfigReader) {
  const layers = r.int('num_hidden_layers');
  const hidden = r.int('hidden_size');
  const heads = r.int('num_attention_heads');
  const headDim = r.int('head_dim', hidden % heads === 0 ? hidden / heads : undefined);
  return { layers, hidden, heads, kvHeads: r.int('num_key_value_heads', heads), headDim };
}

/** Vocabulary, embeddings, context and MTP layers: fields every family reads the same way. */
function commonFields(r: ConfigReader) {
  // Qwen3.5 counts its MTP layers as mtp_num_hidden_layers.
  const mtpLayers = r.int('num_nextn_predict_layers', r.int('mtp_num_hidden_layers', 0, 0), 0);
  return {
    vocab: r.int('vocab_size'),
    tiedEmbeddings: r.bool('tie_word_embeddings', false),
    // Kimi Linear states its context as model_max_length only.
    maxContext: r.int('max_position_embeddings', r.has('model_max_length') ? r.int('model_max_length') : undefined),
    ...(mtpLayers > 0 ? { mtpLayers } : {}),
  };
}

/** Which layers have a mixture of experts; the rest have a dense MLP of `intermediate_size`. */
type MoeLayerRule = (r: ConfigReader, layer: number) => boolean;

/** Qwen MoE: `mlp_only_layers` stay dense, and only every `decoder_sparse_step`-th layer is sparse. */
const qwenMoeLayers: MoeLayerRule = (r, layer) =>
  !(r.list('mlp_only_layers') ?? []).includes(layer) && (layer + 1) % r.int('decoder_sparse_step', 1) === 0;

/** DeepSeek / GLM: the first `first_k_dense_replace` layers are dense, then every `moe_layer_freq`-th is sparse. */
const firstKDenseLayers: MoeLayerRule = (r, layer) =>
  layer >= r.int('first_k_dense_replace', 0, 0) && layer % r.int('moe_layer_freq', 1) === 0;

const everyLayer: MoeLayerRule = () => true;

/** ERNIE 4.5: layers from `moe_layer_start_index` to `moe_layer_end_index`, every `moe_layer_interval`-th, are sparse. */
const ernieMoeLayers: MoeLayerRule = (r, layer) => {
  const start = r.int('moe_layer_start_index', r.int('num_hidden_layers'), 0);
  const end = r.int('moe_layer_end_index', r.int('num_hidden_layers') - 1, 0);
  return layer >= start && layer <= end && (layer - start) % r.int('moe_layer_interval', 1) === 0;
};

/** Field names of one family's expert configuration. */
interface ExpertFields {
  experts: string;
  /** The experts each token is routed to (default `num_experts_per_tok`). */
  topK?: string;
  intermediate: string;
  /** Shared expert: its own intermediate size, or a count of experts of `intermediate` size. */
  shared?: { size: string } | { count: string };
  moeLayer: MoeLayerRule;
}

function mixtureOfExperts(r: ConfigReader, layers: number, fields: ExpertFields) {
  const moeIntermediate = r.int(fields.intermediate);
  const shared = fields.shared;
  const sharedIntermediate =
    shared === undefined ? 0 : 'size' in shared ? r.int(shared.size, 0, 0) : r.int(shared.count, 0, 0) * moeIntermediate;
  let moeLayerCount = 0;
  for (let layer = 0; layer < layers; layer++) if (fields.moeLayer(r, layer)) moeLayerCount++;
  const denseLayers = layers - moeLayerCount;
  return {
    intermediate: denseLayers > 0 ? r.int('intermediate_size') : 0,
    denseLayers,
    experts: r.int(fields.experts),
    expertsPerToken: r.int(fields.topK ?? 'num_experts_per_tok'),
    moeIntermediate,
    ...(sharedIntermediate > 0 ? { sharedIntermediate } : {}),
  };
}

function denseMlp(r: ConfigReader, layers: number) {
  return { intermediate: r.int('intermediate_size'), denseLayers: layers };
}

/** Layers with a sliding window when the config has no `layer_types`, by the family's own rule. */
type WindowLayerRule = (r: ConfigReader, layers: number) => number;

const noWindow: WindowLayerRule = () => 0;
/** Mistral / Mixtral: a non-null `sliding_window` applies to every layer. */
const everyLayerSlides: WindowLayerRule = (r, layers) => (r.has('sliding_window') ? layers : 0);
/** Qwen: with `use_sliding_window`, the layers from `max_window_layers` on slide. */
const qwenWindowLayers: WindowLayerRule = (r, layers) =>
  r.bool('use_sliding_window', false) ? Math.max(0, layers - r.int('max_window_layers', 0, 0)) : 0;
/** gpt-oss: even layers slide, odd layers attend fully. */
const alternateLayersSlide: WindowLayerRule = (_r, layers) => Math.ceil(layers / 2);
/** Gemma 3: every `sliding_window_pattern`-th layer is global, the others slide. */
const gemmaWindowLayers: WindowLayerRule = (r, layers) => layers - Math.floor(layers / r.int('sliding_window_pattern'));

function slidingWindow(
  r: ConfigReader,
  layers: number,
  maxContext: number,
  rule: WindowLayerRule,
  separatePool: boolean,
): { slidingWindow?: SlidingWindowConfig } {
  const windowLayers = r.countIn('layer_types', 'sliding_attention') ?? rule(r, layers);
  if (windowLayers === 0) return {};
  const size = r.int('sliding_window');
  // A window as long as the context never drops a token.
  return size >= maxContext ? {} : { slidingWindow: { size, layers: windowLayers, separatePool } };
}

/** Multi-head latent attention; a null `q_lora_rank` projects queries directly (Kimi Linear, DeepSeek-V2-Lite). */
function multiHeadLatentAttention(r: ConfigReader): MlaConfig {
  return {
    qLoraRank: r.int('q_lora_rank', 0, 0),
    kvLoraRank: r.int('kv_lora_rank'),
    ropeHeadDim: r.int('qk_rope_head_dim'),
    nopeHeadDim: r.int('qk_nope_head_dim'),
    vHeadDim: r.int('v_head_dim'),
  };
}

/** Recurrent state is kept in FP32 (SGLang's default mamba/linear-attention state dtype). */
const LINEAR_STATE_BYTES = 4;

/** Qwen3-Next / Qwen3.5: Gated DeltaNet layers, with full attention every `full_attention_interval`-th layer. */
function gatedDeltaNet(r: ConfigReader, layers: number): LinearAttentionConfig {
  const fullAttentionLayers = r.countIn('layer_types', 'full_attention') ?? Math.floor(layers / r.int('full_attention_interval'));
  const keyHeads = r.int('linear_num_key_heads');
  const valueHeads = r.int('linear_num_value_heads');
  const keyHeadDim = r.int('linear_key_head_dim');
  const valueHeadDim = r.int('linear_value_head_dim');
  return {
    kind: 'gated-deltanet',
    layers: layers - fullAttentionLayers,
    fullAttentionLayers,
    keyHeads,
    valueHeads,
    keyHeadDim,
    valueHeadDim,
    stateBytes: LINEAR_STATE_BYTES,
    // The short convolution runs over the concatenated q, k and v.
    convChannels: 2 * keyHeads * keyHeadDim + valueHeads * valueHeadDim,
    convKernel: r.int('linear_conv_kernel_dim', 4),
  };
}

/** MiniMax: `attn_type_list` marks lightning (linear, 0) and softmax (1) layers; M2 has softmax everywhere. */
function lightningAttention(r: ConfigReader, heads: number, headDim: number): Partial<Architecture> {
  const softmaxLayers = r.countIn('attn_type_list', 1);
  const layers = r.list('attn_type_list')?.length ?? 0;
  if (softmaxLayers === undefined || softmaxLayers === layers) return {};
  return {
    linearAttention: {
      kind: 'lightning',
      layers: layers - softmaxLayers,
      fullAttentionLayers: softmaxLayers,
      keyHeads: heads,
      valueHeads: heads,
      keyHeadDim: headDim,
      valueHeadDim: headDim,
      stateBytes: LINEAR_STATE_BYTES,
      convChannels: 0,
      convKernel: 0,
    },
  };
}

interface Family {
  /** Defaults of the transformers config class for fields published checkpoints leave out. */
  defaults?: ConfigObject;
  read(r: ConfigReader): Architecture;
}

interface GqaFamily {
  /** The MoE fields; absent for a dense MLP in every layer. */
  experts?: ExpertFields;
  windowRule?: WindowLayerRule;
  /** Whether SGLang pools the window layers' KV apart (hybrid SWA memory). */
  separateWindowPool?: boolean;
  /** What the family adds to grouped-query attention (linear-attention layers). */
  extra?: (r: ConfigReader, attention: ReturnType<typeof gqaAttention>) => Partial<Architecture>;
  defaults?: ConfigObject;
}

/** A family whose softmax attention is grouped-query attention. */
function gqaFamily({ experts, windowRule = noWindow, separateWindowPool = false, extra, defaults }: GqaFamily = {}): Family {
  return {
    ...(defaults ? { defaults } : {}),
    read(r) {
      const attention = gqaAttention(r);
      const common = commonFields(r);
      return {
        ...attention,
        ...(experts ? mixtureOfExperts(r, attention.layers, experts) : denseMlp(r, attention.layers)),
        ...common,
        ...slidingWindow(r, attention.layers, common.maxContext, windowRule, separateWindowPool),
        ...extra?.(r, attention),
      };
    },
  };
}

const QWEN_EXPERTS: ExpertFields = {
  experts: 'num_experts',
  intermediate: 'moe_intermediate_size',
  shared: { size: 'shared_expert_intermediate_size' },
  moeLayer: qwenMoeLayers,
};
const DEEPSEEK_EXPERTS: ExpertFields = {
  experts: 'n_routed_experts',
  intermediate: 'moe_intermediate_size',
  shared: { count: 'n_shared_experts' },
  moeLayer: firstKDenseLayers,
};
const ERNIE_EXPERTS: ExpertFields = {
  experts: 'moe_num_experts',
  topK: 'moe_k',
  intermediate: 'moe_intermediate_size',
  shared: { count: 'moe_num_shared_experts' },
  moeLayer: ernieMoeLayers,
};
const KIMI_LINEAR_EXPERTS: ExpertFields = {
  experts: 'num_experts',
  topK: 'num_experts_per_token',
  intermediate: 'moe_intermediate_size',
  shared: { count: 'num_shared_experts' },
  moeLayer: firstKDenseLayers,
};
const LOCAL_EXPERTS: ExpertFields = { experts: 'num_local_experts', intermediate: 'intermediate_size', moeLayer: everyLayer };
const MINIMAX_EXPERTS: ExpertFields = { ...LOCAL_EXPERTS, shared: { size: 'shared_intermediate_size' } };

/** Multi-head latent attention in every softmax layer, with the family's experts. */
function mlaStack(r: ConfigReader, layers: number, experts: ExpertFields) {
  const heads = r.int('num_attention_heads');
  const mla = multiHeadLatentAttention(r);
  return {
    layers,
    hidden: r.int('hidden_size'),
    heads,
    kvHeads: r.int('num_key_value_heads', heads),
    headDim: mla.vHeadDim,
    ...mixtureOfExperts(r, layers, experts),
    ...commonFields(r),
    mla,
  };
}

/** DeepSeek-V2's layers with plain multi-head attention (`use_mla` false: DeepSeek-OCR's decoder). */
const deepseekMha = gqaFamily({ experts: DEEPSEEK_EXPERTS });

const deepseekFamily: Family = {
  read(r) {
    if (!r.bool('use_mla', true)) return deepseekMha.read(r);
    return {
      ...mlaStack(r, r.int('num_hidden_layers'), DEEPSEEK_EXPERTS),
      // DeepSeek-V3.2's sparse attention: a lightning indexer picks the top-k tokens each query attends to.
      ...(r.has('index_topk')
        ? { dsa: { topK: r.int('index_topk'), indexHeads: r.int('index_n_heads'), indexHeadDim: r.int('index_head_dim') } }
        : {}),
    };
  },
};

/**
 * Kimi Linear: Kimi Delta Attention layers (`linear_attn_config.kda_layers`, numbered from 1) between
 * MLA layers, with DeepSeek-style experts under their own field names.
 */
const kimiLinear: Family = {
  read(r) {
    const layers = r.int('num_hidden_layers');
    const kda = r.nested('linear_attn_config') ?? r.fail(`${r.field('linear_attn_config')} is missing`);
    const kdaLayers = kda.list('kda_layers')?.length ?? kda.fail(`${kda.field('kda_layers')} is missing`);
    const heads = kda.int('num_heads');
    const headDim = kda.int('head_dim');
    return {
      ...mlaStack(r, layers, KIMI_LINEAR_EXPERTS),
      linearAttention: {
        kind: 'kda',
        layers: kdaLayers,
        fullAttentionLayers: layers - kdaLayers,
        keyHeads: heads,
        valueHeads: heads,
        keyHeadDim: headDim,
        valueHeadDim: headDim,
        stateBytes: LINEAR_STATE_BYTES,
        // Short convolutions over q, k and v.
        convChannels: 3 * heads * headDim,
        convKernel: kda.int('short_conv_kernel_size', 4),
      },
    };
  },
};

/** Nemotron-H block letters: each layer is one block, a mixer or an MLP. */
const NEMOTRON_BLOCKS: Record<string, 'mamba' | 'attention' | 'mlp' | 'moe'> = { M: 'mamba', '*': 'attention', '-': 'mlp', E: 'moe' };

/** SSM state dtypes SGLang keeps (mamba_ssm_cache_dtype). */
const SSM_STATE_BYTES: Record<string, number> = { float32: 4, bfloat16: 2, float16: 2 };

/**
 * Nemotron-H (Nemotron 3): a stack of single blocks named by `layers_block_type` or, one letter per layer,
 * `hybrid_override_pattern` (M Mamba-2, * attention, - MLP, E experts); MLPs are squared-ReLU, two matrices.
 */
const nemotronH: Family = {
  read(r) {
    const named = r.list('layers_block_type');
    const pattern = r.text('hybrid_override_pattern');
    const blocks: string[] =
      named?.map((kind) => String(kind)) ??
      (pattern === undefined
        ? r.fail(`${r.field('hybrid_override_pattern')} is missing`)
        : [...pattern].map((letter) => NEMOTRON_BLOCKS[letter] ?? r.fail(`${r.field('hybrid_override_pattern')} has block '${letter}', which is not modelled (M, *, -, E)`)));
    const count = (kind: string): number => blocks.filter((block) => block === kind).length;
    const unknown = blocks.find((block) => !Object.values(NEMOTRON_BLOCKS).includes(block as never));
    if (unknown !== undefined) r.fail(`${r.field('layers_block_type')} has block '${unknown}', which is not modelled (mamba, attention, mlp, moe)`, UNSUPPORTED_FIX);
    const attention = gqaAttention(r);
    const mambaHeads = r.int('mamba_num_heads');
    const mambaHeadDim = r.int('mamba_head_dim');
    const groups = r.int('n_groups');
    const stateSize = r.int('ssm_state_size');
    const stateDtype = r.text('mamba_ssm_cache_dtype') ?? 'float32';
    const experts = count('moe');
    const dense = count('mlp');
    return {
      ...attention,
      layers: blocks.length,
      intermediate: dense > 0 ? r.int('intermediate_size') : 0,
      denseLayers: dense,
      ungatedMlp: true,
      ...(experts > 0
        ? {
            experts: r.int('n_routed_experts'),
            expertsPerToken: r.int('num_experts_per_tok'),
            moeIntermediate: r.int('moe_intermediate_size'),
            ...(r.has('moe_shared_expert_intermediate_size') ? { sharedIntermediate: r.int('moe_shared_expert_intermediate_size') } : {}),
            ...(r.has('moe_latent_size') ? { expertLatent: r.int('moe_latent_size') } : {}),
            expertLayers: experts,
          }
        : {}),
      ...commonFields(r),
      linearAttention: {
        kind: 'mamba2',
        layers: count('mamba'),
        fullAttentionLayers: count('attention'),
        keyHeads: groups,
        valueHeads: mambaHeads,
        keyHeadDim: stateSize,
        valueHeadDim: mambaHeadDim,
        stateBytes: SSM_STATE_BYTES[stateDtype] ?? r.fail(`${r.field('mamba_ssm_cache_dtype')} '${stateDtype}' is not one of float32, bfloat16, float16`),
        // The convolution runs over x, B and C.
        convChannels: mambaHeads * mambaHeadDim + 2 * groups * stateSize,
        convKernel: r.int('conv_kernel'),
      },
    };
  },
};

/** The per-layer list `list`, checked to be as long as the stack. */
function perLayerList(r: ConfigReader, list: string, layers: number): unknown[] {
  const entries = r.list(list) ?? r.fail(`${r.field(list)} is missing`);
  if (entries.length !== layers) r.fail(`${r.field(list)} has ${entries.length} entries for ${layers} layers`);
  return entries;
}

/** How many layers of the per-layer list `list` hold an entry `marked` accepts. */
function layersMarked(r: ConfigReader, list: string, layers: number, marked: (entry: unknown) => boolean): number {
  return perLayerList(r, list, layers).filter(marked).length;
}

/**
 * Llama 4: chunked attention (`attention_chunk_size`) in three layers of four, global NoPE attention in
 * every fourth (SGLang fixes the pattern: layer L is global when (L + 1) % 4 == 0); every
 * `interleave_moe_layer_step`-th layer routes to one of its experts beside a shared expert of the same
 * size (`intermediate_size`), the others run a dense MLP of `intermediate_size_mlp`.
 */
const llama4: Family = {
  read(r) {
    const attention = gqaAttention(r);
    const { layers } = attention;
    const common = commonFields(r);
    const step = r.int('interleave_moe_layer_step', 1, 0);
    let moeLayers = 0;
    for (let layer = 0; layer < layers; layer++) if (step === 0 || (layer + 1) % step === 0) moeLayers++;
    const expertSize = r.int('intermediate_size');
    const chunk = r.int('attention_chunk_size', 0, 0);
    const chunkedLayers = layers - Math.floor(layers / 4);
    return {
      ...attention,
      intermediate: moeLayers < layers ? r.int('intermediate_size_mlp') : 0,
      denseLayers: layers - moeLayers,
      experts: r.int('num_local_experts'),
      expertsPerToken: r.int('num_experts_per_tok'),
      moeIntermediate: expertSize,
      sharedIntermediate: expertSize,
      ...common,
      // SGLang pools the chunked layers' KV apart (hybrid SWA memory): a request keeps at most a chunk there.
      ...(chunk > 0 && chunk < common.maxContext ? { slidingWindow: { size: chunk, layers: chunkedLayers, separatePool: true, chunked: true } } : {}),
    };
  },
};

/**
 * Qwen3.5: Qwen3-Next's stack (Gated DeltaNet layers, gated full attention every
 * `full_attention_interval`-th layer), dense or with experts in every layer.
 */
function qwen35Family(experts: ExpertFields | undefined): Family {
  return gqaFamily({
    ...(experts ? { experts } : {}),
    extra: (r, attention) => ({
      linearAttention: gatedDeltaNet(r, attention.layers),
      ...(r.bool('attn_output_gate', false) ? { attentionOutputGate: true } : {}),
    }),
  });
}

/**
 * Gemma 4: sliding layers of `head_dim` × `num_key_value_heads` and full layers of `global_head_dim` ×
 * `num_global_key_value_heads` (V is K there with `attention_k_eq_v`), by `layer_types`; the last
 * `num_kv_shared_layers` read an earlier layer's cache (and, with `use_double_wide_mlp`, have twice the
 * MLP); every layer has a GeGLU MLP and, with `enable_moe_block`, experts beside it; E-models add
 * per-layer embeddings (`hidden_size_per_layer_input` per layer and token).
 */
const gemma4: Family = {
  defaults: { tie_word_embeddings: true },
  read(r) {
    const attention = gqaAttention(r);
    const { layers, heads } = attention;
    const common = commonFields(r);
    const types = perLayerList(r, 'layer_types', layers);
    const unknown = types.find((type) => type !== 'sliding_attention' && type !== 'full_attention');
    if (unknown !== undefined) r.fail(`${r.field('layer_types')} has '${String(unknown)}', which is not modelled (sliding_attention, full_attention)`, UNSUPPORTED_FIX);
    const shared = types.slice(layers - r.int('num_kv_shared_layers', 0, 0));
    const sharedOf = (type: string): number => shared.filter((entry) => entry === type).length;
    const globalHeadDim = r.int('global_head_dim', attention.headDim);
    const intermediate = r.int('intermediate_size');
    const doubleWide = r.bool('use_double_wide_mlp', false) ? shared.length : 0;
    const perLayerInput = r.int('hidden_size_per_layer_input', 0, 0);
    const withExperts = r.bool('enable_moe_block', false);
    return {
      ...attention,
      globalAttention: {
        heads,
        kvHeads: r.int('num_global_key_value_heads', attention.kvHeads),
        headDim: globalHeadDim,
        valueHeadDim: globalHeadDim,
        keyIsValue: r.bool('attention_k_eq_v', false),
        outputGate: false,
      },
      slidingWindow: { size: r.int('sliding_window'), layers: types.filter((type) => type === 'sliding_attention').length, separatePool: true },
      ...(shared.length > 0 ? { sharedKvLayers: { window: sharedOf('sliding_attention'), global: sharedOf('full_attention') } } : {}),
      intermediate: (intermediate * (layers + doubleWide)) / layers,
      denseLayers: layers,
      ...(withExperts
        ? { experts: r.int('num_experts'), expertsPerToken: r.int('top_k_experts'), moeIntermediate: r.int('moe_intermediate_size'), expertLayers: layers }
        : {}),
      ...common,
      ...(perLayerInput > 0 ? { lookupParams: r.int('vocab_size_per_layer_input', common.vocab) * layers * perLayerInput } : {}),
    };
  },
};

/**
 * MiMo-V2-Flash: `hybrid_layer_pattern` marks sliding-window layers (1), with their own heads and widths
 * (`swa_*`), pooled apart by SGLang; `moe_layer_freq` marks the layers with experts.
 */
const mimoV2Flash: Family = {
  read(r) {
    const attention = gqaAttention(r);
    const { layers } = attention;
    const common = commonFields(r);
    const windowLayers = layersMarked(r, 'hybrid_layer_pattern', layers, (entry) => entry === 1);
    const moeLayers = layersMarked(r, 'moe_layer_freq', layers, (entry) => entry === 1 || entry === true);
    const swaHeadDim = r.int('swa_head_dim', attention.headDim);
    return {
      ...attention,
      valueHeadDim: r.int('v_head_dim', attention.headDim),
      slidingWindow: {
        size: r.has('sliding_window_size') ? r.int('sliding_window_size') : r.int('sliding_window'),
        layers: windowLayers,
        separatePool: true,
        attention: {
          heads: r.int('swa_num_attention_heads', attention.heads),
          kvHeads: r.int('swa_num_key_value_heads', attention.kvHeads),
          headDim: swaHeadDim,
          valueHeadDim: r.int('swa_v_head_dim', swaHeadDim),
          keyIsValue: false,
          outputGate: false,
        },
      },
      intermediate: moeLayers < layers ? r.int('intermediate_size') : 0,
      denseLayers: layers - moeLayers,
      experts: r.int('n_routed_experts'),
      expertsPerToken: r.int('num_experts_per_tok'),
      moeIntermediate: r.int('moe_intermediate_size'),
      ...(r.int('n_shared_experts', 0, 0) > 0 ? { sharedIntermediate: r.int('n_shared_experts') * r.int('moe_intermediate_size') } : {}),
      ...common,
    };
  },
};

/**
 * Step-3.5: `layer_types` marks sliding-window layers, whose heads and KV groups are
 * `attention_other_setting`'s (full layers: `num_attention_heads`, `num_attention_groups` as KV heads);
 * the layers listed in `moe_layers_enum` route to experts beside a shared MLP of `share_expert_dim`, the
 * rest run a dense MLP. The list also describes the MTP layers after the stack, which it counts apart.
 */
const step3p5: Family = {
  read(r) {
    const layers = r.int('num_hidden_layers');
    const hidden = r.int('hidden_size');
    const heads = r.int('num_attention_heads');
    const headDim = r.int('head_dim');
    const common = commonFields(r);
    const types = (r.list('layer_types') ?? r.fail(`${r.field('layer_types')} is missing`)).slice(0, layers);
    if (types.length < layers) r.fail(`${r.field('layer_types')} has ${types.length} entries for ${layers} layers`);
    const windowLayers = types.filter((type) => type === 'sliding_attention').length;
    const sliding = r.nested('attention_other_setting');
    const enumerated = (r.text('moe_layers_enum') ?? '').split(',').filter((entry) => entry.trim() !== '').map(Number);
    if (enumerated.some((layer) => !Number.isInteger(layer) || layer < 0 || layer >= layers)) {
      r.fail(`${r.field('moe_layers_enum')} must list layer indices below ${layers}`);
    }
    const moeLayers = new Set(enumerated).size;
    const windowHeadDim = sliding?.int('head_dim', headDim) ?? headDim;
    return {
      layers,
      hidden,
      heads,
      kvHeads: r.int('num_attention_groups'),
      headDim,
      ...(windowLayers > 0
        ? {
            slidingWindow: {
              size: r.int('sliding_window'),
              layers: windowLayers,
              separatePool: true,
              attention: {
                heads: sliding?.int('num_attention_heads') ?? heads,
                kvHeads: sliding?.int('num_attention_groups') ?? r.int('num_attention_groups'),
                headDim: windowHeadDim,
                valueHeadDim: windowHeadDim,
                keyIsValue: false,
                outputGate: false,
              },
            },
          }
        : {}),
      intermediate: moeLayers < layers ? r.int('intermediate_size') : 0,
      denseLayers: layers - moeLayers,
      ...(moeLayers > 0
        ? {
            experts: r.int('moe_num_experts'),
            expertsPerToken: r.int('moe_top_k'),
            moeIntermediate: r.int('moe_intermediate_size'),
            ...(r.int('share_expert_dim', 0, 0) > 0 ? { sharedIntermediate: r.int('share_expert_dim') } : {}),
          }
        : {}),
      ...common,
    };
  },
};

// transformers' Gemma3TextConfig defaults: the published gemma-3 configs omit these.
const gemma3 = gqaFamily({
  windowRule: gemmaWindowLayers,
  defaults: { head_dim: 256, vocab_size: 262208, max_position_embeddings: 131072, sliding_window_pattern: 6, tie_word_embeddings: true },
});

const minimax = gqaFamily({ experts: MINIMAX_EXPERTS, extra: (r, attention) => lightningAttention(r, attention.heads, attention.headDim) });

// Qwen2 and Qwen3 read alike, dense and MoE; their vision-language wrappers hold the same language models.
const qwen = gqaFamily({ windowRule: qwenWindowLayers });
const qwenMoe = gqaFamily({ experts: QWEN_EXPERTS, windowRule: qwenWindowLayers });

const mistral = gqaFamily({ windowRule: everyLayerSlides });

const FAMILIES: Record<string, Family> = {
  llama: gqaFamily(),
  mistral,
  // Ministral 3's language model (inside a mistral3 wrapper) reads as Mistral's.
  ministral3: mistral,
  qwen2: qwen,
  qwen3: qwen,
  // Vision-language wrappers: their language model is the family's (vision_config: hf-vision.ts).
  qwen2_5_vl: qwen,
  qwen2_5_vl_text: qwen,
  qwen3_vl: qwen,
  qwen3_vl_text: qwen,
  qwen3_vl_moe: qwenMoe,
  qwen3_vl_moe_text: qwenMoe,
  gemma3_text: gemma3,
  gemma3,
  mixtral: gqaFamily({ experts: LOCAL_EXPERTS, windowRule: everyLayerSlides }),
  qwen2_moe: qwenMoe,
  qwen3_moe: qwenMoe,
  qwen3_next: gqaFamily({
    experts: QWEN_EXPERTS,
    extra: (r, attention) => ({ linearAttention: gatedDeltaNet(r, attention.layers) }),
    // The checkpoints carry one MTP layer (SGLang's NEXTN draft) that the config does not count.
    defaults: { num_nextn_predict_layers: 1 },
  }),
  glm4_moe: gqaFamily({ experts: DEEPSEEK_EXPERTS }),
  gpt_oss: gqaFamily({ experts: LOCAL_EXPERTS, windowRule: alternateLayersSlide, separateWindowPool: true }),
  minimax_m2: minimax,
  minimax_m1: minimax,
  llama4: llama4,
  llama4_text: llama4,
  qwen3_5: qwen35Family(undefined),
  qwen3_5_text: qwen35Family(undefined),
  qwen3_5_moe: qwen35Family(QWEN_EXPERTS),
  qwen3_5_moe_text: qwen35Family(QWEN_EXPERTS),
  gemma4: gemma4,
  gemma4_text: gemma4,
  // MiMo-7B is Qwen2's architecture with MTP layers (num_nextn_predict_layers).
  mimo: qwen,
  mimo_v2_flash: mimoV2Flash,
  step3p5: step3p5,
  ernie4_5: gqaFamily(),
  ernie4_5_moe: gqaFamily({ experts: ERNIE_EXPERTS }),
  glm4_moe_lite: deepseekFamily,
  glm_moe_dsa: deepseekFamily,
  kimi_linear: kimiLinear,
  nemotron_h: nemotronH,
  deepseek_v2: deepseekFamily,
  deepseek_vl_v2: deepseekFamily,
  deepseek_v3: deepseekFamily,
  deepseek_v32: deepseekFamily,
  kimi_k2: deepseekFamily,
};

/** `architectures` entries of configs that carry no `model_type`. */
const MODEL_TYPE_OF_ARCHITECTURE: Record<string, string> = {
  LlamaForCausalLM: 'llama',
  MistralForCausalLM: 'mistral',
  MixtralForCausalLM: 'mixtral',
  Qwen2ForCausalLM: 'qwen2',
  Qwen2MoeForCausalLM: 'qwen2_moe',
  Qwen3ForCausalLM: 'qwen3',
  Qwen3MoeForCausalLM: 'qwen3_moe',
  Qwen3NextForCausalLM: 'qwen3_next',
  DeepseekV2ForCausalLM: 'deepseek_v2',
  DeepseekV3ForCausalLM: 'deepseek_v3',
  DeepseekV32ForCausalLM: 'deepseek_v32',
  Glm4MoeForCausalLM: 'glm4_moe',
  Glm4MoeLiteForCausalLM: 'glm4_moe_lite',
  GlmMoeDsaForCausalLM: 'glm_moe_dsa',
  Ernie4_5_ForCausalLM: 'ernie4_5',
  Ernie4_5_MoeForCausalLM: 'ernie4_5_moe',
  KimiLinearForCausalLM: 'kimi_linear',
  Llama4ForConditionalGeneration: 'llama4',
  DeepseekOCRForCausalLM: 'deepseek_vl_v2',
  Llama4ForCausalLM: 'llama4_text',
  Qwen3_5ForConditionalGeneration: 'qwen3_5',
  Qwen3_5MoeForConditionalGeneration: 'qwen3_5_moe',
  Gemma4ForConditionalGeneration: 'gemma4',
  MiMoForCausalLM: 'mimo',
  MiMoV2FlashForCausalLM: 'mimo_v2_flash',
  Step3p5ForCausalLM: 'step3p5',
  NemotronHForCausalLM: 'nemotron_h',
  MiniMaxM2ForCausalLM: 'minimax_m2',
  MiniMaxM1ForCausalLM: 'minimax_m1',
  GptOssForCausalLM: 'gpt_oss',
  Gemma3ForCausalLM: 'gemma3_text',
  Gemma3ForConditionalGeneration: 'gemma3',
};

/** The text model's `model_type`, else the wrapper's, else the one its `architectures` implies. */
function modelTypeOf(r: ConfigReader, outer: ConfigReader): string {
  const declared = r.text('model_type') ?? outer.text('model_type');
  if (declared !== undefined) return declared;
  const architecture = (outer.list('architectures') ?? []).find((name) => typeof name === 'string' && name in MODEL_TYPE_OF_ARCHITECTURE);
  if (typeof architecture !== 'string') r.fail(`${r.field('model_type')} is missing`);
  return MODEL_TYPE_OF_ARCHITECTURE[architecture]!;
}

/** `quant_method` values that name one format outright. */
const QUANT_METHODS: Record<string, QuantName> = {
  fp8: 'fp8',
  fbgemm_fp8: 'fp8',
  w8a8_fp8: 'fp8',
  modelopt_fp8: 'fp8',
  w8a8_int8: 'w8a8',
  mxfp4: 'mxfp4',
  modelopt_fp4: 'nvfp4',
  w4afp8: 'w4a8',
};

/** ModelOpt's `quant_algo` values. */
const MODELOPT_ALGOS: Record<string, QuantName> = { fp8: 'fp8', nvfp4: 'nvfp4', w4a8_awq: 'w4a8' };

/** compressed-tensors `format` values, for configs without `config_groups`. */
const COMPRESSED_TENSORS_FORMATS: Record<string, QuantName> = {
  'float-quantized': 'fp8',
  'int-quantized': 'w8a8',
  'pack-quantized': 'int4',
  'nvfp4-pack-quantized': 'nvfp4',
};

/** compressed-tensors: the weight and activation widths of its first quantization group. */
function compressedTensorsQuant(q: ConfigReader): QuantName {
  const groups = q.nested('config_groups');
  const firstGroup = groups?.keys()[0];
  if (!groups || firstGroup === undefined) {
    const format = q.text('format');
    const mapped = format === undefined ? undefined : COMPRESSED_TENSORS_FORMATS[format];
    return mapped ?? q.fail(`${q.field('format')} ${JSON.stringify(format ?? null)} is not a compressed-tensors format this model knows`, UNSUPPORTED_FIX);
  }
  const group = groups.nested(firstGroup)!;
  const weights = group.nested('weights') ?? group.fail(`${group.field('weights')} is missing`);
  const activations = group.nested('input_activations');
  const weightBits = weights.int('num_bits');
  const activationBits = activations?.int('num_bits');
  const floats = weights.text('type') === 'float';
  if (weightBits === 8 && activationBits === 8) return floats ? 'fp8' : 'w8a8';
  if (weightBits === 4 && activationBits === undefined) return 'int4';
  if (weightBits === 4 && activationBits === 8) return 'w4a8';
  if (weightBits === 4 && activationBits === 4 && floats) return 'nvfp4';
  return weights.fail(
    `${weights.field('num_bits')} ${weightBits} with ${activationBits ?? 16}-bit activations is not a format this model knows`,
    UNSUPPORTED_FIX,
  );
}

/** The weight format `quantization_config` announces, or null when the checkpoint is not quantized. */
function configQuant(r: ConfigReader): QuantName | null {
  const q = r.nested('quantization_config');
  if (!q) return null;
  const method = q.text('quant_method')?.toLowerCase() ?? q.fail(`${q.field('quant_method')} is missing`);
  const direct = QUANT_METHODS[method];
  if (direct) return direct;
  if (method === 'compressed-tensors') return compressedTensorsQuant(q);
  if (['awq', 'gptq', 'awq_marlin', 'gptq_marlin'].includes(method)) {
    const bits = q.int('bits');
    if (bits !== 4) q.fail(`${q.field('bits')} ${bits} is not modelled (4-bit AWQ/GPTQ only)`, UNSUPPORTED_FIX);
    return 'int4';
  }
  if (method === 'modelopt') {
    const algo = (q.text('quant_algo') ?? q.nested('quantization')?.text('quant_algo'))?.toLowerCase();
    const mapped = algo === undefined ? undefined : MODELOPT_ALGOS[algo];
    return mapped ?? q.fail(`${q.field('quant_algo')} ${JSON.stringify(algo ?? null)} is not a ModelOpt format this model knows`, UNSUPPORTED_FIX);
  }
  return q.fail(
    `${q.field('quant_method')} '${method}' is not modelled (fp8, compressed-tensors, awq, gptq, mxfp4, modelopt, w4afp8)`,
    UNSUPPORTED_FIX,
  );
}

/** A model directory's processor config (preprocessor_config.json), when it has one: where a vision model's pixel budget is. */
export interface PreprocessorFile {
  config: unknown;
  file: string;
}

/**
 * The ModelSpec of a parsed config.json. `name` names the model (the directory's name); `file` is the
 * path the errors cite. Multimodal wrappers (`text_config`) are read through to their language model;
 * a vision-language model's `vision_config` (with `preprocessor`'s image budget) becomes its tower.
 */
export function modelSpecFromHfConfig(config: unknown, name: string, file = 'config.json', preprocessor?: PreprocessorFile): ModelSpec {
  if (!isObject(config)) throw new UserError(`${file}: not a JSON object; ${FIX}`);
  const outer = new ConfigReader(config, file);
  // Multimodal wrappers nest their language model as text_config (DeepSeek-VL2 / OCR: language_config).
  const nestedKey = ['text_config', 'language_config'].find((key) => outer.nested(key) !== undefined);
  const nested = nestedKey === undefined ? undefined : (config[nestedKey] as ConfigObject);
  const prefix = nestedKey === undefined ? '' : `${nestedKey}.`;
  const modelType = modelTypeOf(new ConfigReader(nested ?? config, file, prefix), outer);
  const family = FAMILIES[modelType];
  if (!family) {
    outer.fail(`'${prefix}model_type' '${modelType}' is not modelled (${Object.keys(FAMILIES).join(', ')})`, UNSUPPORTED_FIX);
  }
  const r = new ConfigReader({ ...family.defaults, ...(nested ?? config) }, file, prefix);
  const processor = preprocessor === undefined ? undefined : isObject(preprocessor.config) ? new ConfigReader(preprocessor.config, preprocessor.file) : undefined;
  if (preprocessor !== undefined && processor === undefined) throw new UserError(`${preprocessor.file}: not a JSON object; ${FIX}`);
  const architecture = family.read(r);
  const vision = visionTower(outer, processor, architecture.hidden);
  return {
    key: name.toLowerCase(),
    name,
    aliases: [],
    ...architecture,
    nativeQuant: configQuant(r.has('quantization_config') ? r : outer) ?? 'bf16',
    ...(vision === undefined ? {} : { vision }),
    source: file,
  };
}
