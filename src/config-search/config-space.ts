/**
 * The launch configurations worth predicting for a model on N devices: parallelism (TP, DP,
 * DP attention and EP for MoE models), chunked prefill, speculative decoding where the model has a
 * draft (MTP or EAGLE3), and PD separation with a prefill:decode split. Pure: which of them fit in
 * memory is left to the performance model, which refuses a deployment that does not.
 */
import type { DeployMode, ModelSpec, ServerRole } from '../deployment/index.js';

/** A smaller chunk than the hardware default shortens the decode stall behind each prefill. */
export const SMALL_CHUNKED_PREFILL = 4096;
/** The draft settings of the published recipes (cookbook: 3 steps, top-1, 4 draft tokens). */
export const SPECULATIVE_FLAGS = ['--speculative-num-steps', '3', '--speculative-eagle-topk', '1', '--speculative-num-draft-tokens', '4'];
const MAX_PREFILL_INSTANCES = 4;
const MAX_DECODE_INSTANCES = 2;

/** One kind of server in a deployment, run `replicas` times on `devices` devices each. */
export interface InstancePlan {
  role: ServerRole;
  replicas: number;
  devices: number;
  /** SGLang launch flags of one replica (without the model path). */
  flags: string[];
}

export interface ConfigCandidate {
  /** Short human label, e.g. `TP8 DP8 dp-attn EP8 +spec`. */
  label: string;
  mode: DeployMode;
  instances: InstancePlan[];
}

export interface ConfigSpaceInput {
  model: ModelSpec;
  /** Devices as SGLang counts them (an Ascend 910C die is one). */
  devices: number;
  /** Include PD-separated splits. */
  includePd: boolean;
}

function divisors(n: number): number[] {
  const found: number[] = [];
  for (let d = 1; d <= n; d += 1) if (n % d === 0) found.push(d);
  return found;
}

function isMoe(model: ModelSpec): boolean {
  return (model.experts ?? 0) > 0;
}

/** Attention heads must split evenly over the attention-TP group. */
function attentionTpFits(model: ModelSpec, attentionTp: number): boolean {
  return model.heads % attentionTp === 0;
}

function expertsSplit(model: ModelSpec, ep: number): boolean {
  return (model.experts ?? 0) % ep === 0;
}

/** The speculative algorithm a model's draft uses: MTP layers run as EAGLE; otherwise an EAGLE3 draft. */
export function speculativeFlags(model: ModelSpec): string[] | null {
  if (model.mtpLayers) return ['--speculative-algorithm', 'EAGLE', ...SPECULATIVE_FLAGS];
  if (model.eagle3Draft) {
    const draft = `<eagle3-draft-of-${model.key}>`;
    return ['--speculative-algorithm', 'EAGLE3', '--speculative-draft-model-path', draft, ...SPECULATIVE_FLAGS];
  }
  return null;
}

interface Parallelism {
  flags: string[];
  label: string;
}

/** Parallel layouts of one instance on `devices` devices. */
export function parallelLayouts(model: ModelSpec, devices: number): Parallelism[] {
  const layouts: Parallelism[] = [];
  for (const tp of divisors(devices)) {
    const dp = devices / tp;
    if (!attentionTpFits(model, tp)) continue;
    const base = ['--tp', String(tp), ...(dp > 1 ? ['--dp', String(dp)] : [])];
    const baseLabel = `TP${tp}${dp > 1 ? ` DP${dp}` : ''}`;
    layouts.push({ flags: base, label: baseLabel });
    if (isMoe(model) && tp > 1 && expertsSplit(model, tp)) {
      layouts.push({ flags: [...base, '--ep', String(tp)], label: `${baseLabel} EP${tp}` });
    }
  }
  if (isMoe(model) && expertsSplit(model, devices)) {
    // DP attention: attention split into `dp` groups of devices/dp, experts spread over all devices.
    for (const dp of divisors(devices)) {
      if (dp === 1 || !attentionTpFits(model, devices / dp)) continue;
      layouts.push({
        flags: ['--tp', String(devices), '--dp', String(dp), '--enable-dp-attention', '--ep', String(devices)],
        label: `TP${devices} DP${dp} dp-attn EP${devices}`,
      });
    }
  }
  return layouts;
}

function mixedCandidates(model: ModelSpec, devices: number): ConfigCandidate[] {
  const spec = speculativeFlags(model);
  const candidates: ConfigCandidate[] = [];
  for (const layout of parallelLayouts(model, devices)) {
    for (const chunked of [null, SMALL_CHUNKED_PREFILL]) {
      for (const withSpec of spec ? [false, true] : [false]) {
        const flags = [...layout.flags];
        let label = layout.label;
        if (chunked !== null) {
          flags.push('--chunked-prefill-size', String(chunked));
          label += ` chunk${chunked}`;
        }
        if (withSpec && spec) {
          flags.push(...spec);
          label += ' +spec';
        }
        candidates.push({ label, mode: 'pd-mixed', instances: [{ role: 'mixed', replicas: 1, devices, flags }] });
      }
    }
  }
  return candidates;
}

/** Decode instances batch many requests: MoE decode uses DP attention with wide EP, as the recipes do. */
function decodeLayout(model: ModelSpec, devices: number): Parallelism | undefined {
  if (isMoe(model) && devices > 1 && expertsSplit(model, devices)) {
    return {
      flags: ['--tp', String(devices), '--dp', String(devices), '--enable-dp-attention', '--ep', String(devices)],
      label: `D TP${devices} DP${devices} dp-attn EP${devices}`,
    };
  }
  if (!attentionTpFits(model, devices)) return undefined;
  return { flags: ['--tp', String(devices)], label: `D TP${devices}` };
}

function prefillLayout(model: ModelSpec, devices: number): Parallelism | undefined {
  if (!attentionTpFits(model, devices)) return undefined;
  const ep = isMoe(model) && devices > 1 && expertsSplit(model, devices) ? ['--ep', String(devices)] : [];
  return { flags: ['--tp', String(devices), ...ep], label: `P TP${devices}${ep.length > 0 ? ` EP${devices}` : ''}` };
}

function pdCandidates(model: ModelSpec, devices: number): ConfigCandidate[] {
  const spec = speculativeFlags(model);
  const candidates: ConfigCandidate[] = [];
  const sizes = divisors(devices).filter((size) => size < devices);
  for (const prefillDevices of sizes) {
    for (const decodeDevices of sizes) {
      for (let prefills = 1; prefills <= MAX_PREFILL_INSTANCES; prefills += 1) {
        const remaining = devices - prefills * prefillDevices;
        if (remaining <= 0 || remaining % decodeDevices !== 0) continue;
        const decodes = remaining / decodeDevices;
        if (decodes > MAX_DECODE_INSTANCES) continue;
        const prefill = prefillLayout(model, prefillDevices);
        const decode = decodeLayout(model, decodeDevices);
        if (!prefill || !decode) continue;
        for (const withSpec of spec ? [false, true] : [false]) {
          // The draft runs on both sides in SGLang's PD recipes: prefill produces the first draft state.
          const specFlags = withSpec && spec ? spec : [];
          candidates.push({
            label: `${prefills}x(${prefill.label}) + ${decodes}x(${decode.label})${withSpec ? ' +spec' : ''}`,
            mode: 'pd-separated',
            instances: [
              { role: 'prefill', replicas: prefills, devices: prefillDevices, flags: [...prefill.flags, '--disaggregation-mode', 'prefill', ...specFlags] },
              { role: 'decode', replicas: decodes, devices: decodeDevices, flags: [...decode.flags, '--disaggregation-mode', 'decode', ...specFlags] },
            ],
          });
        }
      }
    }
  }
  return candidates;
}

/** Every candidate configuration for the model on the given devices, mixed first. */
export function enumerateConfigs(input: ConfigSpaceInput): ConfigCandidate[] {
  const mixed = mixedCandidates(input.model, input.devices);
  return input.includePd ? [...mixed, ...pdCandidates(input.model, input.devices)] : mixed;
}
