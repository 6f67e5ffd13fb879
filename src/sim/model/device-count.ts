/**
 * How many devices (what SGLang counts: a GPU, or one die of an Ascend 910C) a deployment occupies,
 * and on how many physical cards: best-practice tables quote throughput per card.
 */
import type { HardwareProfile } from './catalog.js';

/** The parallel layout of one SGLang instance, as its launch flags state it. */
export interface InstanceLayout {
  tp: number;
  dp: number;
  enableDpAttention: boolean;
  /** Pipeline stages (`--pp-size`); 1 when absent. */
  pp?: number;
}

/** Devices of one instance: TP spans the DP-attention ranks; `--dp` without DP attention replicates the TP group. */
export function instanceDeviceCount(layout: InstanceLayout): number {
  return layout.tp * (layout.enableDpAttention ? 1 : layout.dp) * (layout.pp ?? 1);
}

/** Cards occupied by `devices` devices (a partial card counts as a whole one). */
export function cardsFor(hardware: Pick<HardwareProfile, 'devicesPerCard'>, devices: number): number {
  return Math.ceil(devices / hardware.devicesPerCard);
}
