/**
 * A vision-language model's tower, read from its config.json's `vision_config` by the wrapper's
 * `model_type` (the tower class SGLang builds for it): the weights it adds, as encoder stacks and the
 * matrices around them, and the rule its processor turns an image into prompt tokens by (with the
 * budget preprocessor_config.json sets, else the processor's default). A `vision_config` this reader
 * cannot size is one UserError line naming it: its weights and tokens are never left out silently.
 */
import type { ImageTokenRule, VisionConfig, VisionEncoderStack, WeightMatrix } from './catalog.js';
import { UNSUPPORTED_FIX, type ConfigReader } from './hf-config-reader.js';

/** Reads one family's tower; `textHidden` is the language model's width the projector feeds. */
type TowerReader = (v: ConfigReader, outer: ConfigReader, processor: ConfigReader | undefined, textHidden: number) => VisionConfig;

/** The RGB patch embedding (a convolution or its unfolded linear): `patch`² pixels of 3 channels → `width`. */
function patchEmbedding(patch: number, width: number, frames = 1): WeightMatrix {
  return { rows: 3 * frames * patch * patch, cols: width };
}

/** The list `name` of `count` whole numbers ≥ 1. */
function wholeNumbers(r: ConfigReader, name: string, count: number): number[] {
  const list = r.list(name) ?? r.fail(`${r.field(name)} is missing`);
  if (list.length !== count || !list.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
    r.fail(`${r.field(name)} must list ${count} whole numbers ≥ 1, not ${JSON.stringify(list)}`);
  }
  return list as number[];
}

/** A stack of non-gated (GELU) blocks, the ViT default. */
function vitStack(layers: number, width: number, intermediate: number): VisionEncoderStack {
  return { layers, width, intermediate, gatedMlp: false };
}

/** The processor's pixel budget: `min_pixels`/`max_pixels` (Qwen2.5-VL) or `size.shortest_edge`/`size.longest_edge` (Qwen3-VL). */
function pixelBudget(processor: ConfigReader | undefined, defaults: { minPixels: number; maxPixels: number }): { minPixels: number; maxPixels: number } {
  if (processor === undefined) return defaults;
  const size = processor.nested('size');
  return {
    minPixels: processor.int('min_pixels', size?.int('shortest_edge', defaults.minPixels) ?? defaults.minPixels),
    maxPixels: processor.int('max_pixels', size?.int('longest_edge', defaults.maxPixels) ?? defaults.maxPixels),
  };
}

/**
 * Qwen2.5-VL / Qwen3-VL / Qwen3.5: `depth` blocks (SwiGLU in Qwen2.5-VL, two matrices in Qwen3-VL), a
 * patch embedding over `temporal_patch_size` frames (a still image is fed as equal frames), learned
 * positions (`num_position_embeddings`), and a merger of 2×2 patches into the model plus one per
 * DeepStack layer (`deepstack_visual_indexes`). `budget` is the processor's default pixel budget.
 */
function qwenTower(gatedMlp: boolean, budget: { minPixels: number; maxPixels: number }): TowerReader {
  return (v, _outer, processor, textHidden) => {
    const width = v.int('hidden_size');
    const patchSize = v.int('patch_size');
    const mergeSize = v.int('spatial_merge_size', 2);
    const merged = width * mergeSize * mergeSize;
    const mergers = 1 + (v.list('deepstack_visual_indexes')?.length ?? 0);
    const positions = v.int('num_position_embeddings', 0, 0);
    return {
      encoders: [{ layers: v.int('depth'), width, intermediate: v.int('intermediate_size'), gatedMlp }],
      otherWeights: [
        patchEmbedding(patchSize, width, v.int('temporal_patch_size', 2)),
        ...(positions > 0 ? [{ rows: positions, cols: width }] : []),
        ...Array.from({ length: mergers }, () => [{ rows: merged, cols: merged }, { rows: merged, cols: textHidden }]).flat(),
      ],
      tokens: { rule: 'qwen-resize', patchSize, mergeSize, ...pixelBudget(processor, budget) },
    };
  };
}

// transformers' defaults of each processor's pixel budget.
const qwen25Tower = qwenTower(true, { minPixels: 3136, maxPixels: 12845056 });
// Qwen3.5's tower is Qwen3-VL's (no DeepStack mergers); its processor keeps Qwen3-VL's budget.
const qwen3Tower = qwenTower(false, { minPixels: 65536, maxPixels: 16777216 });

/**
 * Llama 4: `num_hidden_layers` GELU blocks over 14-pixel patches of a `image_size` tile with a class
 * token and learned positions; pixel shuffle (`pixel_shuffle_ratio`) folds 2×2 patches into
 * `intermediate_size` channels for the adapter MLP (→ `projector_input_dim` → `projector_output_dim`),
 * and a linear projector takes `vision_output_dim` to the text width. The image processor tiles the image
 * (preprocessor `max_patches` tiles of `size.height` pixels; transformers' defaults 16 and the tile size).
 */
const llama4Tower: TowerReader = (v, _outer, processor, textHidden) => {
  const width = v.int('hidden_size');
  const intermediate = v.int('intermediate_size');
  const patch = v.int('patch_size');
  const tile = v.int('image_size');
  const patchesPerTile = (tile / patch) ** 2;
  const tokensPerTile = patchesPerTile * v.positive('pixel_shuffle_ratio') ** 2;
  if (!Number.isInteger(tokensPerTile)) v.fail(`${v.field('pixel_shuffle_ratio')} leaves ${tokensPerTile} tokens per ${tile}-pixel tile, not a whole number`);
  return {
    encoders: [vitStack(v.int('num_hidden_layers'), width, intermediate)],
    otherWeights: [
      patchEmbedding(patch, width),
      { rows: patchesPerTile + 1, cols: width },
      { rows: 1, cols: width },
      { rows: intermediate, cols: v.int('projector_input_dim') },
      { rows: v.int('projector_input_dim'), cols: v.int('projector_output_dim') },
      { rows: v.int('vision_output_dim'), cols: textHidden },
    ],
    tokens: {
      rule: 'tiles',
      tileSize: processor?.nested('size')?.int('height', tile) ?? tile,
      tokensPerTile,
      maxTiles: processor?.int('max_patches', 16) ?? 16,
    },
  };
};

/**
 * Gemma 3: SigLIP, `num_hidden_layers` GELU blocks over `patch_size` patches of a square `image_size`
 * image with a learned position per patch, projected to the text width; every image becomes
 * `mm_tokens_per_image` tokens (Gemma3Config's default 256; pan-and-scan is off by default).
 */
const siglipTower: TowerReader = (v, outer, _processor, textHidden) => {
  const width = v.int('hidden_size');
  const patch = v.int('patch_size');
  return {
    encoders: [vitStack(v.int('num_hidden_layers'), width, v.int('intermediate_size'))],
    otherWeights: [patchEmbedding(patch, width), { rows: (v.int('image_size') / patch) ** 2, cols: width }, { rows: width, cols: textHidden }],
    tokens: { rule: 'fixed', perImage: outer.int('mm_tokens_per_image', 256) },
  };
};

/**
 * Gemma 4: `num_hidden_layers` GeGLU blocks over `patch_size` patches, a linear patch embedding, a
 * position table per axis (`position_embedding_size` each), projected to the text width. The image
 * processor pools `pooling_kernel_size`² patches into a token, up to its `max_soft_tokens` (the
 * config's `vision_soft_tokens_per_image`; 280 by default).
 */
const gemma4Tower: TowerReader = (v, outer, processor, textHidden) => {
  const width = v.int('hidden_size');
  const patchSize = v.int('patch_size');
  const attentionWidth = v.int('num_attention_heads') * v.int('head_dim');
  if (attentionWidth !== width) v.fail(`${v.field('num_attention_heads')} × ${v.field('head_dim')} is ${attentionWidth}, not hidden_size ${width}: a tower of another attention width is not modelled`, UNSUPPORTED_FIX);
  const maxTokens = outer.int('vision_soft_tokens_per_image', 280);
  return {
    encoders: [{ layers: v.int('num_hidden_layers'), width, intermediate: v.int('intermediate_size'), gatedMlp: true }],
    otherWeights: [patchEmbedding(patchSize, width), { rows: 2 * v.int('position_embedding_size'), cols: width }, { rows: width, cols: textHidden }],
    tokens: { rule: 'pooled-budget', patchSize, pooling: v.int('pooling_kernel_size', 3), maxTokens: processor?.int('max_soft_tokens', maxTokens) ?? maxTokens },
  };
};

/**
 * Kimi-K2.5: MoonViT, `vt_num_hidden_layers` GELU blocks over `patch_size` patches with a learned
 * `init_pos_emb_height` × `init_pos_emb_width` position grid; the patch merger folds
 * `merge_kernel_size` patches (`mm_hidden_size` each) into one and a two-layer MLP projects them to
 * `text_hidden_size`. The processor's budget is media_proc_cfg's `in_patch_limit` and
 * `patch_limit_on_one_side`, by default the Kimi-K2.5 repo's 16384 patches (3.2 MP) and 512 a side.
 */
const moonVitTower: TowerReader = (v, _outer, processor) => {
  const width = v.int('vt_hidden_size');
  const patchSize = v.int('patch_size');
  const [mergeH, mergeW] = wholeNumbers(v, 'merge_kernel_size', 2);
  if (mergeH !== mergeW) v.fail(`${v.field('merge_kernel_size')} [${mergeH}, ${mergeW}] is not square, which is not modelled`, UNSUPPORTED_FIX);
  const merged = v.int('mm_hidden_size') * mergeH * mergeH;
  const media = processor?.nested('media_proc_cfg');
  return {
    encoders: [vitStack(v.int('vt_num_hidden_layers'), width, v.int('vt_intermediate_size'))],
    otherWeights: [
      patchEmbedding(patchSize, width),
      { rows: v.int('init_pos_emb_height') * v.int('init_pos_emb_width'), cols: width },
      { rows: merged, cols: merged },
      { rows: merged, cols: v.int('text_hidden_size') },
    ],
    tokens: {
      rule: 'navit',
      patchSize,
      mergeSize: mergeH,
      maxPatches: media?.int('in_patch_limit', 16384) ?? 16384,
      maxPatchesPerSide: media?.int('patch_limit_on_one_side', 512) ?? 512,
    },
  };
};

/** SAM ViT-B's patch size and neck width in DeepSeek-OCR's encoder (fixed by its code; the config names neither). */
const SAM_PATCH = 16;
const SAM_NECK = 256;
/** SGLang's DeepSeek-OCR processing (configs/deepseek_ocr.py): Gundam mode, crops of 640 pixels, 2 to 6 of them. */
const OCR_CROP = { cropSize: 640, minCrops: 2, maxCrops: 6 };

/**
 * DeepSeek-OCR (`model_name` deeplip_b_l): SAM ViT-B (`width.sam_vit_b`, MLP ratio 4) over 16-pixel
 * patches of the `image_size` view, its neck (1×1 then 3×3 to 256 channels, then 3×3 stride-2
 * convolutions to `downsample_channels`), then CLIP-L (`width.clip-l-14-224`, MLP ratio 4) over
 * those features, a linear projector (`projector_config` input_dim → n_embed), and the newline and
 * view-separator embeddings. The 16× downsampling (patches, then two stride-2 convolutions) makes a
 * view of S pixels S/64 tokens a side.
 */
const deepEncoderTower: TowerReader = (v, outer) => {
  const name = v.text('model_name');
  if (name !== 'deeplip_b_l') v.fail(`${v.field('model_name')} ${JSON.stringify(name ?? null)} is not modelled (deeplip_b_l: DeepSeek-OCR's SAM + CLIP encoder)`, UNSUPPORTED_FIX);
  const towers = v.nested('width') ?? v.fail(`${v.field('width')} is missing`);
  const sam = towers.nested('sam_vit_b') ?? towers.fail(`${towers.field('sam_vit_b')} is missing`);
  const clip = towers.nested('clip-l-14-224') ?? towers.fail(`${towers.field('clip-l-14-224')} is missing`);
  const samWidth = sam.int('width');
  const clipWidth = clip.int('width');
  const clipPatch = clip.int('patch_size');
  const [down1, down2] = wholeNumbers(sam, 'downsample_channels', 2);
  const base = v.int('image_size');
  const projector = outer.nested('projector_config') ?? outer.fail(`${outer.field('projector_config')} is missing`);
  const type = projector.text('projector_type');
  if (type !== 'linear') projector.fail(`${projector.field('projector_type')} ${JSON.stringify(type ?? null)} is not modelled (linear)`, UNSUPPORTED_FIX);
  const embed = projector.int('n_embed');
  const tokens: ImageTokenRule = { rule: 'global-and-crops', globalQueries: base / (SAM_PATCH * 4), cropQueries: OCR_CROP.cropSize / (SAM_PATCH * 4), ...OCR_CROP };
  return {
    encoders: [vitStack(sam.int('layers'), samWidth, 4 * samWidth), vitStack(clip.int('layers'), clipWidth, 4 * clipWidth)],
    otherWeights: [
      patchEmbedding(SAM_PATCH, samWidth),
      { rows: (base / SAM_PATCH) ** 2, cols: samWidth },
      { rows: samWidth, cols: SAM_NECK },
      { rows: 9 * SAM_NECK, cols: SAM_NECK },
      { rows: 9 * SAM_NECK, cols: down1 },
      { rows: 9 * down1, cols: down2 },
      patchEmbedding(clipPatch, clipWidth),
      { rows: (clip.int('image_size') / clipPatch) ** 2 + 1, cols: clipWidth },
      { rows: 1, cols: clipWidth },
      { rows: projector.int('input_dim'), cols: embed },
      { rows: 2, cols: embed },
    ],
    tokens,
  };
};

/**
 * Mistral 3's Pixtral tower: `num_hidden_layers` gated (SwiGLU) blocks over `patch_size` patches, a
 * patch merger folding the wrapper's `spatial_merge_size`² patches into one, and a two-layer projector
 * to the language model; images are scaled down to fit `image_size` on their longest side.
 */
const pixtralTower: TowerReader = (v, outer, _processor, textHidden) => {
  const width = v.int('hidden_size');
  const patchSize = v.int('patch_size');
  const mergeSize = outer.int('spatial_merge_size', 2);
  return {
    encoders: [{ layers: v.int('num_hidden_layers'), width, intermediate: v.int('intermediate_size'), gatedMlp: true }],
    otherWeights: [
      patchEmbedding(patchSize, width),
      { rows: width * mergeSize * mergeSize, cols: width },
      { rows: width, cols: textHidden },
      { rows: textHidden, cols: textHidden },
    ],
    tokens: { rule: 'rows-with-breaks', patchSize, mergeSize, longestEdge: v.int('image_size') },
  };
};

/** The towers by the wrapper's `model_type`. */
const TOWERS: Record<string, TowerReader> = {
  qwen2_5_vl: qwen25Tower,
  qwen3_vl: qwen3Tower,
  qwen3_vl_moe: qwen3Tower,
  qwen3_5: qwen3Tower,
  qwen3_5_moe: qwen3Tower,
  llama4: llama4Tower,
  gemma3: siglipTower,
  gemma4: gemma4Tower,
  kimi_k25: moonVitTower,
  deepseek_vl_v2: deepEncoderTower,
  mistral3: pixtralTower,
};

/** The tower of a config with a `vision_config`, or undefined for a text-only model; one this reader cannot size ⇒ UserError. */
export function visionTower(outer: ConfigReader, processor: ConfigReader | undefined, textHidden: number): VisionConfig | undefined {
  const v = outer.nested('vision_config');
  if (v === undefined) return undefined;
  const wrapper = outer.text('model_type') ?? '';
  const read = TOWERS[wrapper];
  if (read === undefined) {
    const tower = v.text('model_type');
    const named = tower === undefined ? `${outer.field('vision_config')} of model_type '${wrapper}'` : `${v.field('model_type')} '${tower}'`;
    return outer.fail(`${named} is not modelled (the towers of ${Object.keys(TOWERS).join(', ')})`, UNSUPPORTED_FIX);
  }
  return read(v, outer, processor, textHidden);
}
