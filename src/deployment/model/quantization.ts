/**
 * Weight/activation formats: which bytes a weight costs and which peak its matrix math runs at.
 * The format comes from `--quantization`, else from what the checkpoint announces (its config.json's
 * quantization_config, or a suffix of its name), else from the catalog's native format (DeepSeek ships FP8).
 */
import { UsageError } from '../../core/errors.js';
import type { HardwareProfile, QuantName } from './catalog.js';

export interface QuantFormat {
  name: QuantName;
  /** Bytes per weight, scales included. */
  weightBytes: number;
  /** Width of the matrix math: 16 (BF16), 8 (FP8/INT8 activations), 4 (FP4). */
  mathBits: 16 | 8 | 4;
  /** Width of the matrix math on a device without FP4 units, for formats whose math is FP4 where it can be. */
  mathBitsWithoutFp4?: 16 | 8;
}

const FORMATS: Record<QuantName, QuantFormat> = {
  bf16: { name: 'bf16', weightBytes: 2, mathBits: 16 },
  fp8: { name: 'fp8', weightBytes: 1, mathBits: 8 },
  w8a8: { name: 'w8a8', weightBytes: 1, mathBits: 8 },
  // 4-bit weights carry one 16-bit scale per group of 64..128 weights.
  w4a8: { name: 'w4a8', weightBytes: 0.53, mathBits: 8 },
  int4: { name: 'int4', weightBytes: 0.53, mathBits: 16 },
  // NVFP4: 4-bit values plus one FP8 scale per 16 weights.
  nvfp4: { name: 'nvfp4', weightBytes: 0.5625, mathBits: 4 },
  // MXFP4: 4-bit values plus one 8-bit scale per 32 weights; Hopper runs it as weight-only BF16 math.
  mxfp4: { name: 'mxfp4', weightBytes: 0.53, mathBits: 4, mathBitsWithoutFp4: 16 },
};


/** Name fragments (lower case, matched between separators) that announce a format; first match wins. */
const NAME_MARKERS: Array<[RegExp, QuantName]> = [
  [/(^|[-_./])mxfp4($|[-_./])/, 'mxfp4'],
  [/(^|[-_./])nvfp4($|[-_./])|(^|[-_./])fp4($|[-_./])/, 'nvfp4'],
  [/(^|[-_./])w4a8($|[-_./])|(^|[-_./])w4afp8($|[-_./])/, 'w4a8'],
  [/(^|[-_./])(awq|gptq)([-_./]|$)|(^|[-_./])int4($|[-_./])/, 'int4'],
  [/(^|[-_./])w8a8($|[-_./])|(^|[-_./])int8($|[-_./])/, 'w8a8'],
  [/(^|[-_./])fp8($|[-_./])/, 'fp8'],
  [/(^|[-_./])bf16($|[-_./])/, 'bf16'],
];

/** The format a model name announces (e.g. `...-W8A8`, `...-FP8`, `...-AWQ`), or null. */
export function quantFromName(name: string): QuantName | null {
  const lower = name.toLowerCase();
  for (const [pattern, quant] of NAME_MARKERS) if (pattern.test(lower)) return quant;
  return null;
}

const FLAG_FORMATS: Record<string, QuantName | 'announced'> = {
  fp8: 'fp8',
  w8a8_fp8: 'fp8',
  w8a8_int8: 'w8a8',
  // Ascend msModelSlim checkpoints: the name says W8A8 or W4A8; W8A8 is the usual one.
  modelslim: 'announced',
  awq: 'int4',
  awq_marlin: 'int4',
  gptq: 'int4',
  gptq_marlin: 'int4',
  moe_wna16: 'int4',
  w4afp8: 'w4a8',
  mxfp4: 'mxfp4',
  modelopt_fp4: 'nvfp4',
  modelopt_fp8: 'fp8',
  'compressed-tensors': 'announced',
  modelopt: 'announced',
};

/**
 * The `--quantization` name of a format, as SGLang reports a checkpoint in it (the first name the
 * flag table maps to the format); null for BF16, which needs none.
 */
export function quantizationFlagOf(format: QuantName): string | null {
  if (format === 'bf16') return null;
  return Object.entries(FLAG_FORMATS).find(([, mapped]) => mapped === format)![0];
}

/**
 * Resolves the weight/activation format of a deployment.
 * @param flag `--quantization` (null when not given)
 * @param announced the format the checkpoint announces (its config's quantization_config or its name's suffix), or null
 * @param nativeQuant the checkpoint's own format (catalog entry or config.json)
 */
export function resolveQuant(flag: string | null, announced: QuantName | null, nativeQuant: QuantName): QuantFormat {
  if (flag !== null) {
    const mapped = FLAG_FORMATS[flag.toLowerCase()];
    if (mapped === undefined) {
      throw new UsageError(
        `unsupported --quantization '${flag}': use one of ${Object.keys(FLAG_FORMATS).join(', ')} or omit it`,
      );
    }
    if (mapped !== 'announced') return FORMATS[mapped];
    return FORMATS[announced ?? 'w8a8'];
  }
  return FORMATS[announced ?? nativeQuant];
}

/** The format as `hw` runs it: FP4-math formats fall back to their stated width where the device has no FP4 units. */
export function quantOnHardware(format: QuantFormat, hw: HardwareProfile): QuantFormat {
  if (format.mathBitsWithoutFp4 === undefined || hw.fp4Tflops > 0) return format;
  return { ...format, mathBits: format.mathBitsWithoutFp4 };
}

/** Dense peak in FLOP/s for matrix math of the given width; 8-bit falls back to INT8 where FP8 is missing. */
export function mathPeak(hw: HardwareProfile, mathBits: 16 | 8 | 4): number {
  const tera = 1e12;
  if (mathBits === 4) return (hw.fp4Tflops || hw.fp8Tflops || hw.int8Tops) * tera;
  if (mathBits === 8) return (hw.fp8Tflops || hw.int8Tops) * tera;
  return hw.bf16Tflops * tera;
}

/** Bytes per KV element for `--kv-cache-dtype` (`auto`/null keeps BF16). */
export function kvElementBytes(kvCacheDtype: string | null): number {
  if (kvCacheDtype === null || kvCacheDtype === 'auto' || kvCacheDtype === 'bf16' || kvCacheDtype === 'bfloat16') {
    return 2;
  }
  if (/^(fp8|int8|fp8_e4m3|fp8_e5m2)$/.test(kvCacheDtype)) return 1;
  if (kvCacheDtype === 'fp4_e2m1') return 0.5;
  throw new UsageError(`unsupported --kv-cache-dtype '${kvCacheDtype}': use auto, bf16, fp8_e4m3, fp8_e5m2 or int8`);
}
