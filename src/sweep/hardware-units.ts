/**
 * How devices (what SGLang counts: a GPU, or one die of an Ascend 910C) group into cards and
 * nodes. Best-practice tables quote throughput per card, and a deployment wider than a node
 * needs `--nnodes`.
 */
import type { HardwareProfile } from '../sim/model/catalog.js';

/** An Atlas 800I A3 card carries two 910C dies; every other catalogued device is one card. */
export function devicesPerCard(hardware: Pick<HardwareProfile, 'key'>): number {
  return hardware.key === 'ascend-910c' ? 2 : 1;
}

/** Eight cards per server: 8 GPUs, or 16 dies of an Atlas 800I A3. */
export function devicesPerNode(hardware: Pick<HardwareProfile, 'key'>): number {
  return 8 * devicesPerCard(hardware);
}

/** Cards occupied by `devices` devices (a partial card counts as a whole one). */
export function cardsFor(hardware: Pick<HardwareProfile, 'key'>, devices: number): number {
  return Math.ceil(devices / devicesPerCard(hardware));
}
