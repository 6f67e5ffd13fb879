/**
 * servebench's own key of a `/get_server_info` body. SGLang's body is its ServerArgs (the launch
 * settings under their flag names: `tp_size`, `dp_size`, `quantization`, `disaggregation_mode`,
 * `device` — the kind, `cuda` or `npu` —, ...), its scheduler's figures, `internal_states` and
 * `version`; it has no field for the model of the device or the weights' format. The sim knows
 * both, since it simulates them, and states them under this key, with its own settings and its
 * flags as given; the catalog reads them back. Writer and reader share this one contract. Pure.
 */
import { isObject } from '../core/json-object.js';
import type { HardwareProfile, QuantName } from './model/catalog.js';

/** The key of the sim's `/get_server_info` that holds what SGLang's body has no field for. */
export const SERVEBENCH_INFO_KEY = 'servebench';

/** The simulated device, in the body's snake_case. */
export interface HardwareInfo {
  /**
   * hardware.json's key (`h100`, `ascend-910c`), or that of a device `--hardware-spec` described.
   * Not called `key`: a bare `key` names a secret to redaction (core/redact.ts), which every stored body passes.
   */
  id: string;
  name: string;
  family: string;
  /** What one device is called where devices are counted: `GPU`, `NPU`, `die`. */
  unit: string;
  devices_per_card: number;
  devices_per_node: number;
}

/** What the sim states under `servebench`. */
export interface ServebenchInfo {
  /** The device it simulates; null when it simulates none (truth mode with a model the catalog does not know). */
  hardware: HardwareInfo | null;
  /** Devices the instance occupies (deployment.ts's count) and the cards they fill (null without a device). */
  devices: number;
  cards: number | null;
  /** The weights' format it simulates (`bf16` included, which SGLang's `quantization` leaves null); null without a model. */
  weight_format: QuantName | null;
  /** The launch flags as given (secrets redacted). */
  raw_args: string[];
  /** Flags accepted without effect. */
  ignored_flags: string[];
  sim_model: string | null;
  sim_seed: number;
  sim_dataset: string | null;
  sim_realtime: boolean;
}

/** A device as a reader of the body needs it: its name, and how its devices fill cards. */
export type ReportedHardware = Pick<HardwareProfile, 'key' | 'name' | 'unit' | 'devicesPerCard'>;

/** What a reader takes from the `servebench` key; null for each part the body does not state. */
export interface ReportedSimulation {
  hardware: ReportedHardware | null;
  weightFormat: string | null;
  rawArgs: string[] | null;
}

/** The device as the sim states it. */
export function hardwareInfo(profile: HardwareProfile): HardwareInfo {
  return {
    id: profile.key,
    name: profile.name,
    family: profile.family,
    unit: profile.unit,
    devices_per_card: profile.devicesPerCard,
    devices_per_node: profile.devicesPerNode,
  };
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

function readHardware(value: unknown): ReportedHardware | null {
  if (!isObject(value)) return null;
  const { id: key, name, unit, devices_per_card: perCard } = value;
  if (!nonEmpty(key) || !nonEmpty(name) || !nonEmpty(unit) || typeof perCard !== 'number' || !Number.isInteger(perCard) || perCard < 1) return null;
  return { key, name, unit, devicesPerCard: perCard };
}

/** The `servebench` key of one server's body, read without trusting it: a part that is missing or malformed is null. */
export function readServebenchInfo(body: Readonly<Record<string, unknown>>): ReportedSimulation {
  const info = body[SERVEBENCH_INFO_KEY];
  if (!isObject(info)) return { hardware: null, weightFormat: null, rawArgs: null };
  const rawArgs = Array.isArray(info.raw_args) && info.raw_args.every((word) => typeof word === 'string') ? (info.raw_args as string[]) : null;
  return { hardware: readHardware(info.hardware), weightFormat: nonEmpty(info.weight_format) ? info.weight_format : null, rawArgs };
}
