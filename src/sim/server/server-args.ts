/**
 * The launch arguments as SGLang's `/get_server_info` reports them: its ServerArgs after post-init,
 * in snake_case, where what SGLang derives when a flag is left out (chunked prefill, memory fraction,
 * CUDA graph batch size, page size, speculative steps, ...) is the resolved value, not null. The sim
 * takes those values from its resolved deployment, the figures the start-up banner prints. A value
 * stays null only where SGLang's stays None: a flag nobody set that SGLang does not derive (parsers,
 * `--max-total-tokens`, whose resolved pool is `max_total_num_tokens`), and quantization of a
 * checkpoint that has none. The sim's own settings are no ServerArgs: they go under `servebench`
 * (servebench-info.ts), so the body holds SGLang's names only.
 */
import { DEFAULT_MAX_PREFILL_TOKENS, type ResolvedInstance } from '../model/resolve-instance.js';
import { launchHardware, quantizationFlagOf, SIM_MODEL_FLAGS, SIM_SERVER_FLAGS, type HardwareFamily, type LaunchConfig } from '../../deployment/index.js';

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The launch fields SGLang has no ServerArgs for: the sim's flags, and what the parser kept of the command line. */
const SIM_ONLY_FIELDS = new Set<keyof LaunchConfig>([...SIM_MODEL_FLAGS, ...SIM_SERVER_FLAGS].map((flag) => flag.field).concat('ignoredFlags', 'rawArgs'));

/** SGLang's default `--speculative-eagle-topk` once speculative decoding is on. */
const DEFAULT_EAGLE_TOPK = 1;

/** SGLang's `device` on a family's devices: torch's backend, which on ROCm is reached as `cuda` too. */
const SGLANG_DEVICE: Record<HardwareFamily, string> = { nvidia: 'cuda', amd: 'cuda', ascend: 'npu' };

/** The values SGLang resolves, from the deployment (null in truth mode with an unknown model: only the flags' own defaults). */
function resolvedValues(launch: LaunchConfig, d: ResolvedInstance | null): Partial<Record<keyof LaunchConfig, unknown>> {
  const always = { dtype: launch.dtype ?? 'auto', kvCacheDtype: launch.kvCacheDtype ?? 'auto', maxPrefillTokens: launch.maxPrefillTokens ?? DEFAULT_MAX_PREFILL_TOKENS };
  if (d === null) return always;
  const spec = d.speculative;
  return {
    ...always,
    maxRunningRequests: launch.maxRunningRequests ?? d.maxRunningPerRank * d.attentionDp,
    chunkedPrefillSize: d.chunkedPrefillSize,
    memFractionStatic: d.memFractionStatic,
    pageSize: d.pageSize,
    cudaGraphMaxBs: d.cudaGraphMaxBs,
    epSize: d.ep,
    quantization: launch.quantization ?? quantizationFlagOf(d.quant.name),
    ...(spec === null
      ? {}
      : {
          speculativeAlgorithm: spec.algorithm,
          speculativeNumSteps: spec.steps,
          speculativeEagleTopk: launch.speculativeEagleTopk ?? DEFAULT_EAGLE_TOPK,
          speculativeNumDraftTokens: spec.draftTokens,
        }),
  };
}

/** Every SGLang launch field in SGLang's snake_case name, resolved as SGLang's post-init would hold it, and the device kind. */
export function resolvedServerArgs(launch: LaunchConfig, deployment: ResolvedInstance | null): Record<string, unknown> {
  const merged = { ...launch, ...resolvedValues(launch, deployment) };
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(merged)) if (!SIM_ONLY_FIELDS.has(key as keyof LaunchConfig)) args[snakeCase(key)] = value;
  args['device'] = SGLANG_DEVICE[(deployment?.hardware ?? launchHardware(launch)).family];
  return args;
}
