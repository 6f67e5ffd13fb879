/**
 * One instance of a deployment (deployment/deployment.ts), its launch flags resolved as SGLang resolves them:
 * the performance model's view of it. Parallel layout, SGLang's derived defaults (spec §2 "Derived
 * limits"), weights and KV pool per device, speculative decoding and efficiency.
 */
import { UsageError, UserError } from '../../core/errors.js';
import { type LaunchConfig, launchHardware, type HardwareProfile, type ModelSpec, instanceDevices, nodesFor, resolveModel, kvElementBytes, quantOnHardware, resolveQuant, type QuantFormat } from '../../deployment/index.js';
import { efficiencyFor, type Calibration, type EfficiencyProfile } from './efficiency.js';
import {
  denseLayers,
  denseMlpParams,
  kvBytesPerTokenPerDevice,
  kvPoolBytesPerTokenPerDevice,
  linearStateBytesPerRequest,
  meanAttentionParams,
  meanLayerParams,
  SWA_FULL_TOKENS_RATIO,
  totalParams,
} from './params.js';

const GB = 1e9;
/** SGLang's default `--max-prefill-tokens`. */
export const DEFAULT_MAX_PREFILL_TOKENS = 16384;
/** SGLANG_PREFILL_DELAYER_MAX_DELAY_PASSES' default. */
const DEFAULT_PREFILL_DELAYER_PASSES = 30;
const MB = 1e6;

export interface SpeculativeConfig {
  algorithm: string;
  /** Draft steps per iteration (`--speculative-num-steps`). */
  steps: number;
  /** Tokens verified per request per iteration (`--speculative-num-draft-tokens`). */
  draftTokens: number;
  /** Mean per-draft-token chain acceptance probability. */
  acceptRate: number;
  /** Weights of the draft model per device (bytes). */
  draftBytesPerDevice: number;
}

/** The new-token ratio SGLang reserves for running requests' future output (schedule_policy). */
export interface NewTokenRatio {
  initial: number;
  minimum: number;
  decayPerStep: number;
}

/** The performance model's view of one instance: every value SGLang would run it with. */
export interface ResolvedInstance {
  hardware: HardwareProfile;
  model: ModelSpec;
  quant: QuantFormat;
  kvElementBytes: number;
  /** Devices of one instance (tensor-parallel size). */
  tp: number;
  /** Independent replicas (`--dp` without DP attention); each has `tp` devices. */
  replicas: number;
  /** Devices of the whole instance, replicas included. */
  devices: number;
  /** Attention data-parallel ranks inside one instance (`--dp` with `--enable-dp-attention`), else 1. */
  attentionDp: number;
  /** Tensor-parallel size of attention: tp / attentionDp. */
  attentionTp: number;
  ep: number;
  /**
   * Tokens reach their experts by all-to-all (`--moe-a2a-backend` DeepEP, Mooncake, FuseEP). Without it an
   * expert-parallel MoE sees every token of its attention group and the layer's all-reduce combines the
   * experts' outputs, as under plain TP.
   */
  expertAllToAll: boolean;
  /**
   * PrefillDelayer under DP attention (`--enable-prefill-delayer`): passes a rank's prefill waits for
   * every rank to have prefill work (`--prefill-delayer-max-delay-passes`, SGLang's default 30); 0 = off.
   */
  prefillDelayerPasses: number;
  /** Tensor-parallel size inside one expert: tp / ep. */
  expertTp: number;
  /** Split of the LM head: attention TP with `--enable-dp-lm-head`, else TP. */
  lmHeadTp: number;
  /** Split of dense MLP layers (`--moe-dense-tp-size`), else attention TP. */
  denseTp: number;
  /**
   * Context-parallel group of extend passes (`--enable-nsa-prefill-context-parallel` on a DSA model):
   * the prompt is split over tp/dp ranks that each run attention and the indexer with every head; 1 = off.
   */
  prefillContextParallel: number;
  nnodes: number;
  /** True when the tensor-parallel group spans servers (its collectives cross the NIC). */
  crossNode: boolean;
  pageSize: number;
  /** `--chunked-prefill-size` as SGLang resolves it: the device's default when unset, -1 when chunking is off. */
  chunkedPrefillSize: number;
  /** Chunked-prefill budget per scheduler rank (after the DP-attention division); Infinity when disabled. */
  chunkedPrefillPerRank: number;
  /** Prefill-batch token budget per rank (max(max_prefill_tokens, context length)). */
  maxPrefillTokens: number;
  maxRunningPerRank: number;
  contextLength: number;
  memFractionStatic: number;
  cudaGraph: boolean;
  cudaGraphMaxBs: number;
  mixedChunk: boolean;
  /** SGLang's overlap scheduler: the host prepares the next step while the device runs this one. */
  overlapSchedule: boolean;
  radixCache: boolean;
  newTokenRatio: NewTokenRatio;
  weightBytesPerDevice: number;
  /** KV bytes per token over every softmax-attention layer (window layers included; see params.ts). */
  kvBytesPerTokenPerDevice: number;
  /** Fixed recurrent state per request (linear attention), bytes per device. */
  stateBytesPerRequest: number;
  /** KV pool per scheduler rank, in tokens (with a separate window pool: the full-attention pool's tokens). */
  kvCapacityPerRank: number;
  speculative: SpeculativeConfig | null;
  disaggregation: LaunchConfig['disaggregationMode'];
  /** PD: the KV transfer engine, and the RDMA devices it uses per node (null: one per device). */
  kvTransfer: { backend: LaunchConfig['disaggregationTransferBackend']; nicsPerNode: number | null };
  efficiency: EfficiencyProfile;
}

/**
 * The distinct RDMA devices `--disaggregation-ib-device` names: a comma-separated list
 * (`mlx5_0,mlx5_1`), or a JSON object giving each device its NIC; null when it names none.
 */
export function namedNics(value: string | null): number | null {
  if (value === null) return null;
  let names: string[];
  try {
    const mapping: unknown = JSON.parse(value);
    names = typeof mapping === 'object' && mapping !== null && !Array.isArray(mapping) ? Object.values(mapping).map(String) : value.split(',');
  } catch {
    names = value.split(',');
  }
  const distinct = new Set(names.map((name) => name.trim()).filter((name) => name !== ''));
  return distinct.size === 0 ? null : distinct.size;
}

/**
 * The value of a flag the LaunchConfig does not model (it is kept only in `rawArgs`), or null.
 * Accepts `--flag value` and `--flag=value`.
 */
function rawFlagValue(rawArgs: readonly string[], name: string): string | null {
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === `--${name}`) return rawArgs[i + 1] ?? null;
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return null;
}

/** Whether a boolean flag the LaunchConfig does not model is present in `rawArgs`. */
function rawFlagPresent(rawArgs: readonly string[], name: string): boolean {
  return rawArgs.includes(`--${name}`);
}

/** Default chunked-prefill size by device memory (`_handle_gpu_memory_settings`). */
function defaultChunkedPrefill(hw: HardwareProfile): number {
  if (hw.family === 'ascend') return 32768;
  if (hw.hbmGB < 35) return 2048;
  if (hw.hbmGB < 60) return 4096;
  if (hw.hbmGB < 160) return 8192;
  return 16384;
}

function defaultCudaGraphMaxBs(hw: HardwareProfile, tp: number): number {
  if (hw.hbmGB < 35) return 24;
  if (hw.hbmGB < 60) return 160;
  return tp < 4 ? 256 : 512;
}

/** Memory SGLang keeps out of the static pool: activations, graphs, communication buffers. */
function reservedBytes(hw: HardwareProfile, chunk: number, graphBs: number, tp: number, speculative: boolean): number {
  let reserved = 512 * MB + 1.5 * MB * Math.max(chunk, 2048) + 2 * MB * graphBs + (tp / 8) * 1024 * MB;
  if (speculative) reserved += 2 * GB;
  if (hw.hbmGB > 60) reserved = Math.max(reserved, 10 * GB);
  return reserved;
}

/**
 * SGLang's default `--mem-fraction-static`: what the reserve leaves of HBM. Ascend's 32K default
 * chunk would reserve most of a 64 GB die by the GPU formula; NPU recipes run at 0.6–0.8, hence the floor.
 */
function defaultMemFraction(hw: HardwareProfile, chunk: number, graphBs: number, tp: number, speculative: boolean): number {
  const fraction = (hw.hbmGB * GB - reservedBytes(hw, chunk, graphBs, tp, speculative)) / (hw.hbmGB * GB);
  return Math.round(Math.max(0.6, fraction) * 1000) / 1000;
}

function positiveOr(value: number | null, fallback: number, flag: string): number {
  if (value === null) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} must be a positive number, got ${value}`);
  return value;
}

/** Window-pool tokens per full-pool token (`--swa-full-tokens-ratio`); 1 with `--disable-hybrid-swa-memory`, one pool for all. */
function swaFullTokensRatio(launch: LaunchConfig): number {
  if (rawFlagPresent(launch.rawArgs, 'disable-hybrid-swa-memory')) return 1;
  const flag = rawFlagValue(launch.rawArgs, 'swa-full-tokens-ratio');
  return positiveOr(flag === null ? null : Number(flag), SWA_FULL_TOKENS_RATIO, '--swa-full-tokens-ratio');
}

function resolveSpeculative(launch: LaunchConfig, model: ModelSpec, quant: QuantFormat, tp: number, efficiency: EfficiencyProfile): SpeculativeConfig | null {
  const algorithm = launch.speculativeAlgorithm?.toUpperCase() ?? null;
  if (algorithm === null) return null;
  const known = ['EAGLE', 'EAGLE3', 'NEXTN', 'MTP', 'STANDALONE'];
  if (!known.includes(algorithm)) {
    throw new UsageError(`unsupported --speculative-algorithm '${launch.speculativeAlgorithm}': use one of ${known.join(', ')}`);
  }
  const steps = positiveOr(launch.speculativeNumSteps, 3, '--speculative-num-steps');
  const draftTokens = positiveOr(launch.speculativeNumDraftTokens, steps + 1, '--speculative-num-draft-tokens');
  // MTP/NEXTN and EAGLE on DeepSeek reuse one extra decoder layer in the checkpoint's format;
  // EAGLE3 heads ship in BF16 (one layer plus an fc over three hidden states).
  const layerParams = meanLayerParams(model) + (algorithm === 'EAGLE3' ? 3 * model.hidden * model.hidden : 0);
  const bytesPerWeight = algorithm === 'EAGLE3' ? 2 : quant.weightBytes;
  return {
    algorithm,
    steps,
    draftTokens,
    acceptRate: efficiency.speculative.acceptRate,
    draftBytesPerDevice: (layerParams * bytesPerWeight) / tp,
  };
}

/**
 * Resolves a launch configuration the way SGLang would: derived defaults for everything the flags
 * leave unset, the per-device memory budget and the KV pool. Bad combinations ⇒ UsageError;
 * a model that does not fit ⇒ UserError.
 */
export function resolveInstance(launch: LaunchConfig, calibration: Calibration = {}): ResolvedInstance {
  const hardware = launchHardware(launch);
  const { model, announcedQuant } = resolveModel(launch);
  const quant = quantOnHardware(resolveQuant(launch.quantization, announcedQuant, model.nativeQuant), hardware);
  const kvBytes = kvElementBytes(launch.kvCacheDtype);
  const efficiency = efficiencyFor({ family: hardware.family, modelKey: model.key, dataset: launch.simDataset, ...calibration });

  const tp = positiveOr(launch.tpSize, 1, '--tp-size');
  const dp = positiveOr(launch.dpSize, 1, '--dp-size');
  const attentionDp = launch.enableDpAttention ? dp : 1;
  if (tp % attentionDp !== 0) throw new UsageError(`--tp-size ${tp} must be a multiple of --dp-size ${dp} with --enable-dp-attention`);
  const attentionTp = tp / attentionDp;
  // An all-to-all MoE backend (DeepEP, Mooncake, Ascend FuseEP) makes SGLang set ep_size = tp_size.
  const a2aBackend = rawFlagValue(launch.rawArgs, 'moe-a2a-backend');
  const expertAllToAll = a2aBackend !== null && a2aBackend !== 'none';
  const delayerPasses = rawFlagValue(launch.rawArgs, 'prefill-delayer-max-delay-passes');
  const prefillDelayerPasses =
    attentionDp > 1 && rawFlagPresent(launch.rawArgs, 'enable-prefill-delayer')
      ? positiveOr(delayerPasses === null ? null : Number(delayerPasses), DEFAULT_PREFILL_DELAYER_PASSES, '--prefill-delayer-max-delay-passes')
      : 0;
  const ep = expertAllToAll ? tp : positiveOr(launch.epSize, 1, '--ep-size');
  if (tp % ep !== 0) throw new UsageError(`--tp-size ${tp} must be a multiple of --ep-size ${ep}`);
  const nnodes = positiveOr(launch.nnodes, 1, '--nnodes');
  const devices = instanceDevices({ tpSize: tp, dpSize: dp, enableDpAttention: launch.enableDpAttention });
  const nodesNeeded = nodesFor(hardware, devices);
  if (nodesNeeded > nnodes) {
    throw new UsageError(
      `--tp-size ${tp} needs ${nodesNeeded} nodes of ${hardware.devicesPerNode} ${hardware.key} devices: add --nnodes ${nodesNeeded}`,
    );
  }

  // NSA prefill context parallel (SGLang `_handle_model_specific_adjustments`): only DSA models honour it;
  // it turns DP attention on with attn_cp_size = tp/dp and moe_dense_tp_size = 1, so attention and the
  // dense MLP are replicated on every rank (SGLang's CUDA path; the NPU path is taken to match). The
  // flag is not modelled by the LaunchConfig: read from rawArgs.
  const contextParallelFlag =
    rawFlagPresent(launch.rawArgs, 'enable-nsa-prefill-context-parallel') || rawFlagPresent(launch.rawArgs, 'enable-dsa-prefill-context-parallel');
  const prefillContextParallel = contextParallelFlag && model.dsa ? tp / attentionDp : 1;
  const weightAttentionTp = prefillContextParallel > 1 ? 1 : attentionTp;
  const denseTp = prefillContextParallel > 1 ? 1 : (launch.moeDenseTpSize ?? attentionTp);

  const contextLength = launch.contextLength ?? model.maxContext;
  const pageSize = launch.pageSize ?? (model.mla && hardware.family === 'nvidia' ? 64 : 1);
  const chunkFlag = launch.chunkedPrefillSize ?? defaultChunkedPrefill(hardware);
  const chunkedTotal = chunkFlag <= 0 ? Number.POSITIVE_INFINITY : chunkFlag;
  const chunkedPrefillPerRank = attentionDp > 1 ? Math.floor(chunkedTotal / attentionDp) : chunkedTotal;
  const cudaGraphMaxBs = launch.cudaGraphMaxBs ?? defaultCudaGraphMaxBs(hardware, tp);
  const speculative = resolveSpeculative(launch, model, quant, tp, efficiency);

  const reserveChunk = Number.isFinite(chunkedPrefillPerRank) ? chunkedPrefillPerRank : 16384;
  const memFractionStatic =
    launch.memFractionStatic ?? defaultMemFraction(hardware, reserveChunk, cudaGraphMaxBs, tp, speculative !== null);

  // Attention is replicated over the DP-attention ranks: each device holds 1/attentionTp of it.
  // Context parallel replicates attention and the dense MLP layers on every rank.
  const attentionWeights = model.layers * meanAttentionParams(model);
  const replicatedDense = prefillContextParallel > 1 ? denseLayers(model) * denseMlpParams(model) : 0;
  const weightParamsPerDevice =
    (totalParams(model) - attentionWeights - replicatedDense) / tp + attentionWeights / weightAttentionTp + replicatedDense;
  const weightBytesPerDevice = weightParamsPerDevice * quant.weightBytes;
  const draftBytes = speculative?.draftBytesPerDevice ?? 0;
  const kvPerToken = kvBytesPerTokenPerDevice(model, kvBytes, attentionTp);
  const runtimeBytes = 1 * GB;
  const pool = hardware.hbmGB * GB * memFractionStatic - weightBytesPerDevice - draftBytes - runtimeBytes;
  if (pool <= 0) {
    throw new UserError(
      `${model.name} (${quant.name}) needs ${(weightBytesPerDevice / GB).toFixed(1)} GB per ${hardware.unit}, more than ` +
        `${(hardware.hbmGB * memFractionStatic).toFixed(1)} GB of ${hardware.key} at --mem-fraction-static ${memFractionStatic}: raise --tp-size`,
    );
  }
  const stateBytesPerRequest = linearStateBytesPerRequest(model, attentionTp);
  const poolBytesPerToken = kvPoolBytesPerTokenPerDevice(model, kvBytes, attentionTp, swaFullTokensRatio(launch));
  const kvCapacityPerRank = Math.floor(
    Math.min(pool / poolBytesPerToken, launch.maxTotalTokens !== null ? launch.maxTotalTokens / attentionDp : Infinity),
  );
  // SGLang: max_running_requests defaults to the req_to_token pool, about capacity / context · 512, clamped to [2048, 4096],
  // and never more than half the KV pool in tokens; DP attention divides it over the ranks.
  const poolRequests = Math.min(4096, Math.max(2048, Math.floor((kvCapacityPerRank / contextLength) * 512)));
  const maxRunningTotal = launch.maxRunningRequests ?? Math.min(poolRequests, Math.floor(kvCapacityPerRank / 2)) * attentionDp;
  const maxRunningPerRank = Math.max(1, Math.floor(maxRunningTotal / attentionDp));

  const conservativeness = attentionDp > 1 ? 0.3 : 1.0;
  const initial = Math.min(0.7 * conservativeness, 1);
  const minimum = Math.min(initial * 0.14, 1);

  return {
    hardware,
    model,
    quant,
    kvElementBytes: kvBytes,
    tp,
    replicas: launch.enableDpAttention ? 1 : dp,
    devices,
    attentionDp,
    attentionTp,
    ep,
    expertAllToAll: expertAllToAll && model.experts !== undefined,
    prefillDelayerPasses,
    expertTp: tp / ep,
    lmHeadTp: launch.enableDpLmHead ? attentionTp : tp,
    denseTp,
    prefillContextParallel,
    nnodes,
    crossNode: tp > hardware.devicesPerNode,
    pageSize,
    chunkedPrefillSize: chunkFlag <= 0 ? -1 : chunkFlag,
    chunkedPrefillPerRank,
    maxPrefillTokens: Math.max(launch.maxPrefillTokens ?? DEFAULT_MAX_PREFILL_TOKENS, contextLength),
    maxRunningPerRank,
    contextLength,
    memFractionStatic,
    cudaGraph: !launch.disableCudaGraph,
    cudaGraphMaxBs,
    mixedChunk: launch.enableMixedChunk,
    overlapSchedule: !launch.disableOverlapSchedule,
    radixCache: !launch.disableRadixCache,
    newTokenRatio: { initial, minimum, decayPerStep: (initial - minimum) / 600 },
    weightBytesPerDevice,
    kvBytesPerTokenPerDevice: kvPerToken,
    stateBytesPerRequest,
    kvCapacityPerRank,
    speculative,
    disaggregation: launch.disaggregationMode,
    kvTransfer: { backend: launch.disaggregationTransferBackend, nicsPerNode: namedNics(launch.disaggregationIbDevice) },
    efficiency,
  };
}
