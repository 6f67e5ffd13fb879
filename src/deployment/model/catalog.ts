/**
 * The hardware catalog, shipped as data (hardware.json next to this file), and the shapes of the
 * model facts every config.json becomes (the bundled models are models/*.json: bundled-models.ts).
 * The JSON is loaded with import attributes, which both tsx and Node ≥ 20.10 understand, and which
 * make tsc copy it into dist/ beside the compiled module — so one code path works from src and dist.
 */
import hardwareData from './hardware.json' with { type: 'json' };
import { UserError } from '../../core/errors.js';

/** The weight formats a model ships in (quantization.ts says what each costs on a device). */
export type QuantName = 'bf16' | 'fp8' | 'w8a8' | 'w4a8' | 'int4' | 'nvfp4' | 'mxfp4';

export type HardwareFamily = 'nvidia' | 'amd' | 'ascend';

/** One device as SGLang counts it (an Ascend 910C die is one device). */
export interface HardwareProfile {
  key: string;
  name: string;
  /** Other names of the device, for `--hardware` and free-text hardware labels (`910c`, `a3`). */
  aliases: string[];
  family: HardwareFamily;
  /** Kernel generation (ampere, ada, hopper, blackwell, cdna3, ascend-a2, ...): kernel maturity differs by it. */
  arch: string;
  /** Devices in one server's scale-up domain; tensor parallelism beyond it crosses the NIC. */
  devicesPerNode: number;
  /** Devices on one physical card (two dies of an Ascend 910C): per-card throughput is quoted per card. */
  devicesPerCard: number;
  /** What one device is called where devices are counted: `GPU`, `NPU`, or `die` where a card holds several. */
  unit: string;
  bf16Tflops: number;
  /** 0 when the device has no FP8 units (Ascend): 8-bit math then uses the INT8 peak. */
  fp8Tflops: number;
  int8Tops: number;
  fp4Tflops: number;
  hbmGB: number;
  hbmTBs: number;
  /** Scale-up link bandwidth per device, one direction. */
  scaleUpGBs: number;
  /** Scale-out NIC bandwidth per device, used when tensor parallelism spans nodes. */
  interNodeGBs: number;
  allReduceUs: number;
  allToAllUs: number;
  /** Smallest cost of one kernel inside a captured graph. */
  kernelFloorUs: number;
  source: string;
}

export interface MlaConfig {
  /** Rank of the query latent; 0 where queries are projected straight from the hidden state. */
  qLoraRank: number;
  kvLoraRank: number;
  ropeHeadDim: number;
  nopeHeadDim: number;
  vHeadDim: number;
}

export interface DsaConfig {
  topK: number;
  indexHeads: number;
  indexHeadDim: number;
}

/**
 * The recurrent layers of a hybrid stack, as SGLang's mamba/linear-attention pool holds them. One shape
 * covers every kind: a per-request state of `valueHeads × keyHeadDim × valueHeadDim` elements per layer
 * (Mamba-2: heads × head_dim × ssm_state_size, keyHeads = n_groups) plus a short-convolution state of
 * `(convKernel − 1) × convChannels` elements; the projections are `2·hidden·keyHeads·keyHeadDim`
 * (queries and keys; Mamba-2's B and C) and `3·hidden·valueHeads·valueHeadDim` (values, gate, output).
 */
export interface LinearAttentionConfig {
  /** Gated DeltaNet (Qwen3-Next, Qwen3.5), Kimi Delta Attention (Kimi Linear), lightning (MiniMax-M1), Mamba-2 (Nemotron-H). */
  kind: LinearAttentionKind;
  /** Layers with this recurrent mixer. */
  layers: number;
  /** Layers with softmax attention (the rest of the mixers). */
  fullAttentionLayers: number;
  keyHeads: number;
  valueHeads: number;
  keyHeadDim: number;
  valueHeadDim: number;
  /** Bytes per state element (FP32 by SGLang's default). */
  stateBytes: number;
  /** Channels of the short causal convolution and its kernel width (0 when the mixer has none). */
  convChannels: number;
  convKernel: number;
}

export type LinearAttentionKind = 'gated-deltanet' | 'kda' | 'lightning' | 'mamba2';

/** The shape of one kind of softmax-attention layer: heads, KV heads and widths. */
export interface AttentionGeometry {
  heads: number;
  kvHeads: number;
  /** Query/key width per head. */
  headDim: number;
  /** Value width per head (the attention output's). */
  valueHeadDim: number;
  /** V is K (Gemma 4's attention_k_eq_v): there is no V projection (SGLang's token pool still keeps a V buffer per layer). */
  keyIsValue: boolean;
  /** The query projection also emits a sigmoid gate on the attention output (Qwen3.5's attn_output_gate). */
  outputGate: boolean;
}

/**
 * Softmax-attention layers that attend to a window of recent tokens instead of the whole context
 * (Gemma 3's local layers, gpt-oss's alternate layers, Mistral-style models whose every layer slides).
 */
export interface SlidingWindowConfig {
  /** Tokens of context a window layer attends to: min(context, size), or the current chunk's tokens when chunked. */
  size: number;
  /** How many of the softmax-attention layers use the window; the others attend to the whole context. */
  layers: number;
  /**
   * Whether SGLang keeps the window layers' KV in a pool of their own (hybrid SWA memory: gpt-oss), where a
   * request holds at most `size` tokens per window layer and the pool has swa_full_tokens_ratio (0.8) times
   * the full pool's tokens. False where SGLang turns hybrid SWA memory off (Gemma 2/3) or no layer attends
   * fully: then every layer keeps every token and only the attention math is windowed.
   */
  separatePool: boolean;
  /**
   * Chunked attention (Llama 4's attention_chunk_size): a token attends to the tokens of its own
   * `size`-aligned chunk, not to the last `size` tokens.
   */
  chunked?: boolean;
  /** The window layers' own shape where it differs from the model's (MiMo-V2-Flash's swa_* fields). */
  attention?: AttentionGeometry;
}

/**
 * Layers whose attention reads the KV cache an earlier layer wrote (Gemma 3n / Gemma 4's
 * num_kv_shared_layers): they compute attention but keep no cache of their own.
 */
export interface SharedKvLayers {
  window: number;
  global: number;
}

/** One stack of encoder blocks of a vision tower: attention (q, k, v and o, each width × width) and an MLP. */
export interface VisionEncoderStack {
  layers: number;
  width: number;
  intermediate: number;
  /** Gated MLP (gate, up and down: SwiGLU / GeGLU) rather than two matrices (up and down). */
  gatedMlp: boolean;
}

/** A weight of a vision tower outside its encoder blocks, `rows × cols` elements. */
export interface WeightMatrix {
  rows: number;
  cols: number;
}

/**
 * How many prompt tokens an image becomes, by the model's own processor (sim/model/image-tokens.ts
 * works each rule out; hf-vision.ts says where each model's numbers come from).
 */
export type ImageTokenRule =
  /** Qwen-VL: SGLang's resize, then the processor's smart_resize to multiples of patch × merge within its pixel budget; one token per merged block. */
  | { rule: 'qwen-resize'; patchSize: number; mergeSize: number; minPixels: number; maxPixels: number }
  /** The same count for every image (Gemma 3's mm_tokens_per_image). */
  | { rule: 'fixed'; perImage: number }
  /** Gemma 4: resized, aspect kept, to the most patches within `maxTokens` pooled tokens, each side a multiple of pooling × patch; one token per pooling² patches. */
  | { rule: 'pooled-budget'; patchSize: number; pooling: number; maxTokens: number }
  /** Llama 4: a canvas of up to `maxTiles` square tiles chosen for the image, `tokensPerTile` per tile, plus a global tile when there are several. */
  | { rule: 'tiles'; tileSize: number; tokensPerTile: number; maxTiles: number }
  /** Kimi-K2.5's MoonViT: scaled down (never up) to `maxPatches` patches and `maxPatchesPerSide` a side, padded to merged blocks; one token per block. */
  | { rule: 'navit'; patchSize: number; mergeSize: number; maxPatches: number; maxPatchesPerSide: number }
  /**
   * Pixtral (Mistral 3): scaled down, aspect kept, until both sides fit `longestEdge`; one token per
   * merged block of patches, and a break (the last row: an end) token after each row of them.
   */
  | { rule: 'rows-with-breaks'; patchSize: number; mergeSize: number; longestEdge: number }
  /**
   * DeepSeek-OCR: a global view of `globalQueries` rows of `globalQueries` tokens and a newline each, a
   * view separator, and for an image larger than one crop a grid of `minCrops`..`maxCrops` crops of
   * `cropSize` pixels, `cropQueries` tokens a side, with a newline after each row of the grid.
   */
  | { rule: 'global-and-crops'; globalQueries: number; cropSize: number; cropQueries: number; minCrops: number; maxCrops: number };

/**
 * The vision tower of a vision-language model (its config.json's vision_config, read by hf-vision.ts):
 * the weights it adds to the model and the rule that turns an image into prompt tokens.
 */
export interface VisionConfig {
  /** The encoder stacks an image passes through (DeepSeek-OCR: SAM ViT-B, then CLIP-L; one elsewhere). */
  encoders: VisionEncoderStack[];
  /** Patch and position embeddings, adapters and the projector into the language model. */
  otherWeights: WeightMatrix[];
  tokens: ImageTokenRule;
}

/** Architecture facts of one model (whole model, no parallel split). */
export interface ModelSpec {
  key: string;
  name: string;
  aliases: string[];
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  /** Value width per head where it differs from headDim (the attention output's width). */
  valueHeadDim?: number;
  /** V is K in every softmax layer of the model's shape (see AttentionGeometry). */
  keyIsValue?: boolean;
  /** Gated attention output in every softmax layer of the model's shape (see AttentionGeometry). */
  attentionOutputGate?: boolean;
  /** The full-attention layers' own shape where it differs from the model's (Gemma 4's global_head_dim, num_global_key_value_heads). */
  globalAttention?: AttentionGeometry;
  /** Layers that read an earlier layer's KV cache and keep none (Gemma 3n / 4). */
  sharedKvLayers?: SharedKvLayers;
  /** Dense MLP intermediate size, averaged over the dense layers where they differ (0 when no layer has one). */
  intermediate: number;
  /** Layers with a dense MLP (MoE models: the first-k-dense layers; both kinds where a layer runs them in parallel). */
  denseLayers: number;
  /**
   * Width the routed experts work in where it is not `hidden` (Nemotron-H's moe_latent_size): each MoE
   * layer projects the hidden state down to it and back, and dispatches tokens at that width.
   */
  expertLatent?: number;
  /** MLPs of two matrices, up and down (Nemotron-H's squared ReLU), not three. */
  ungatedMlp?: boolean;
  /** Layers with routed experts, where not every non-dense layer has them (Nemotron-H's MoE blocks, Gemma 4's parallel branch). */
  expertLayers?: number;
  /** Weights looked up, never multiplied: Gemma 3n / 4's per-layer embeddings (they cost memory, not math). */
  lookupParams?: number;
  experts?: number;
  expertsPerToken?: number;
  moeIntermediate?: number;
  sharedIntermediate?: number;
  vocab: number;
  tiedEmbeddings: boolean;
  maxContext: number;
  /** The checkpoint's own weight format (what its config.json's quantization_config says; bf16 when nothing). */
  nativeQuant: QuantName;
  mla?: MlaConfig;
  dsa?: DsaConfig;
  linearAttention?: LinearAttentionConfig;
  slidingWindow?: SlidingWindowConfig;
  mtpLayers?: number;
  /** A published EAGLE3 draft of the model exists (configuration search offers speculative decoding with it). */
  eagle3Draft?: boolean;
  /** Vision-language models: the vision tower (its weights count in the model's) and its image-token rule. */
  vision?: VisionConfig;
  /** Total parameters the model card publishes, in billions (catalog entries; checks the facts above). */
  publishedParamsB?: number;
  /** Where the facts come from: the Hugging Face repo whose config.json they were read from, or a local file. */
  source: string;
}

/**
 * Hardware profiles by key; `$`-keys are comments and `extends` copies an earlier entry's fields,
 * except its aliases: an alias names exactly one device.
 */
function profiles(data: Record<string, unknown>): Map<string, HardwareProfile> {
  const map = new Map<string, HardwareProfile>();
  for (const [key, value] of Object.entries(data)) {
    if (key.startsWith('$')) continue;
    const { extends: base, ...own } = value as { extends?: string };
    const inherited = base === undefined ? {} : map.get(base);
    if (inherited === undefined) throw new Error(`hardware entry '${key}' extends unknown entry '${base}'`);
    map.set(key, { ...inherited, aliases: [], ...own, key } as unknown as HardwareProfile);
  }
  return map;
}

const HARDWARE = profiles(hardwareData as Record<string, unknown>);

/** Names of the hardware profiles, in catalog order. */
export function hardwareNames(): string[] {
  return [...HARDWARE.keys()];
}

/** The hardware profile named `name`: its key or one of its aliases, case-insensitive. */
export function findHardware(name: string): HardwareProfile | undefined {
  const wanted = name.trim().toLowerCase();
  return HARDWARE.get(wanted) ?? [...HARDWARE.values()].find((profile) => profile.aliases.includes(wanted));
}

/** The hardware profile `name` (see {@link findHardware}); unknown ⇒ UserError. */
export function getHardware(name: string): HardwareProfile {
  const found = findHardware(name);
  if (!found) {
    throw new UserError(
      `unknown hardware '${name}': pass --hardware with one of ${hardwareNames().join(', ')}, or describe it with --hardware-spec FILE.json`,
    );
  }
  return found;
}

/** `name` as a pattern that finds it as a whole word in free text, with any or no separator between its parts. */
function wordPattern(name: string): RegExp {
  const parts = name.split(/[\s_-]+/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?:^|[^a-z0-9])${parts.join('[\\s_-]*')}(?:$|[^a-z0-9])`, 'i');
}

const LABEL_PATTERNS: Array<{ name: string; pattern: RegExp; profile: HardwareProfile }> = [...HARDWARE.values()].flatMap((profile) =>
  [profile.key, ...profile.aliases].map((name) => ({ name, pattern: wordPattern(name), profile })),
);

/**
 * The profile a free-text hardware label names (`Atlas 800I A3`, `8 x H800`, `ascend-910c`): the
 * longest key or alias found in it as a whole word; undefined when none is.
 */
export function hardwareForLabel(label: string): HardwareProfile | undefined {
  let best: { name: string; profile: HardwareProfile } | undefined;
  for (const candidate of LABEL_PATTERNS) {
    if (candidate.pattern.test(label) && (best === undefined || candidate.name.length > best.name.length)) best = candidate;
  }
  return best?.profile;
}
