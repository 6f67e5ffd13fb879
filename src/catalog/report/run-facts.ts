/**
 * Facts a best-practice table needs about a run, each derived from what the run states and
 * labelled with how it was derived: card count, dataset label, deploy mode, quantization.
 */
import { basename } from 'node:path';
import { hardwareForLabel, cardsFor, deployMode, deploymentDevices, instanceDevices, servers } from '../../deployment/index.js';
import type { RunRecord } from '../types.js';

/** A derived value and the reason it holds. */
export interface Derived<T> {
  value: T;
  how: string;
}

/**
 * Card count: the `cards` label, else the recipe's devices over the devices per card of the hardware
 * the label names (2 dies per Ascend A3 card; 1 when the label names no catalogued device), counted in
 * the device's own unit (hardware.json's `unit`: dies, GPUs); null when neither says.
 */
export function deriveCards(run: RunRecord): Derived<number> | null {
  const label = Number(run.labels.cards);
  if (run.labels.cards !== undefined && Number.isFinite(label) && label > 0) return { value: label, how: `label cards=${run.labels.cards}` };
  const recipe = run.recipe;
  if (recipe === null || servers(recipe).length === 0) return null;
  const devices = deploymentDevices(recipe);
  const perInstance = servers(recipe).map((i) => `${i.role} ${instanceDevices(i.config)}`).join(' + ');
  const hardware = run.labels.hardware ?? '';
  const profile = hardwareForLabel(hardware);
  if (profile !== undefined && profile.devicesPerCard > 1) {
    const cards = cardsFor(profile, devices);
    const units = `${profile.unit}s`;
    return { value: cards, how: `recipe: ${perInstance} ${units} = ${cards} ${hardware} cards (${profile.devicesPerCard} ${units} per card)` };
  }
  return { value: devices, how: `recipe: ${perInstance} devices` };
}

/** `3500` → `3.5K`, `1024` → `1K`, `65536` → `64K`, `16` → `16`. */
export function formatLength(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  const thousands = tokens % 1024 === 0 ? tokens / 1024 : Math.round(tokens / 100) / 10;
  return `${thousands}K`;
}

const RANDOM_DATASETS = new Set(['random', 'random-ids', 'image']);

/** Workload label: the `dataset` label (a recipe heading's), an eval run's task (`gsm8k 5-shot`), else `in-out` from random lengths, else the dataset name. */
export function deriveDatasetLabel(run: RunRecord): string | null {
  if (run.labels.dataset) return run.labels.dataset;
  if (run.source.kind === 'eval') return `${String(run.metrics.task)} ${String(run.metrics.num_shots)}-shot`;
  const args = run.args ?? {};
  const name = typeof args.dataset_name === 'string' ? args.dataset_name : null;
  const input = args.random_input_len;
  const output = args.random_output_len;
  const random = name === null ? input !== undefined : RANDOM_DATASETS.has(name);
  if (random && typeof input === 'number' && typeof output === 'number') return `${formatLength(input)}-${formatLength(output)}`;
  return name;
}

/** `PD separation` when the recipe has prefill/decode instances or the label says so, `PD mixed` for a single server. */
export function deriveDeployMode(run: RunRecord): string | null {
  const label = run.labels.deploy;
  if (label) return /sep|disagg/i.test(label) ? 'PD separation' : /mix|colo/i.test(label) ? 'PD mixed' : label;
  const mode = run.recipe ? deployMode(run.recipe) : null;
  return mode === null ? null : mode === 'pd-separated' ? 'PD separation' : 'PD mixed';
}

const QUANT_IN_NAME = /(?:^|[-_./])(w8a8|w4a8|w4a16|w8a16|fp8|nvfp4|mxfp4|fp4|int8|int4|awq|gptq)(?=$|[-_./])/i;

/**
 * Quantization: the label (a summary table's), else a format token in the model name (`-w8a8-`),
 * else the launch `--quantization` (which may name a loader such as `modelslim` rather than a format).
 */
export function deriveQuantization(run: RunRecord): Derived<string> | null {
  if (run.labels.quantization) return { value: run.labels.quantization, how: 'label' };
  const inName = run.model ? QUANT_IN_NAME.exec(run.model) : null;
  if (inName) return { value: inName[1]!.toUpperCase(), how: 'model name' };
  const flag = run.recipe?.instances.find((i) => i.config.quantization)?.config.quantization;
  return flag ? { value: flag, how: 'launch --quantization' } : null;
}

/** The model's short name: the last path part (`/root/models/Qwen3-8B` → `Qwen3-8B`). */
export function shortModelName(run: RunRecord): string | null {
  return run.model ? basename(run.model.replace(/\/+$/, '')) : null;
}
