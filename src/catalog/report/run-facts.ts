/**
 * Facts a best-practice table needs about a run, each derived from what the run states and
 * labelled with how it was derived: hardware, card count, dataset label, deploy mode, quantization.
 * What the user labelled wins over what the run's recipe states (the server's report included).
 */
import { basename } from 'node:path';
import { hardwareForLabel, cardsFor, deployMode, deploymentDevices, instanceDevices, servers, type ReportedHardware } from '../../deployment/index.js';
import type { RecipeConfig, RecipeInstance, RunRecord } from '../types.js';

/** A derived value and the reason it holds. */
export interface Derived<T> {
  value: T;
  how: string;
}

/** The device the recipe's servers reported (the first that names one: a deployment's servers share a device). */
function reportedHardware(recipe: RecipeConfig | null): ReportedHardware | undefined {
  return recipe === null ? undefined : servers(recipe).find((instance) => instance.hardware !== undefined)?.hardware;
}

/** Hardware: the `hardware` label (the user's word wins), else the device the run's server reported (the sim names the one it simulates). */
export function deriveHardware(run: RunRecord): Derived<string> | null {
  if (run.labels.hardware) return { value: run.labels.hardware, how: 'label' };
  const reported = reportedHardware(run.recipe);
  return reported === undefined ? null : { value: reported.key, how: `${reported.name}, reported by the server` };
}

/**
 * Card count: the `cards` label, else the recipe's devices over the devices per card of its device:
 * the catalogued one the `hardware` label names, else the one the server reported (2 dies per Ascend
 * A3 card), counted in the device's own unit (hardware.json's `unit`: dies, GPUs); one device per
 * card when neither names a known device; null when neither label nor recipe says.
 */
export function deriveCards(run: RunRecord): Derived<number> | null {
  const label = Number(run.labels.cards);
  if (run.labels.cards !== undefined && Number.isFinite(label) && label > 0) return { value: label, how: `label cards=${run.labels.cards}` };
  const recipe = run.recipe;
  if (recipe === null || servers(recipe).length === 0) return null;
  const devices = deploymentDevices(recipe);
  const perInstance = servers(recipe).map((i) => `${i.role} ${instanceDevices(i.config)}`).join(' + ');
  const labelled = run.labels.hardware;
  const catalogued = labelled === undefined ? undefined : hardwareForLabel(labelled);
  const profile = catalogued ?? reportedHardware(recipe);
  if (profile === undefined) return { value: devices, how: `recipe: ${perInstance} devices` };
  const name = catalogued === undefined ? profile.key : labelled;
  const cards = cardsFor(profile, devices);
  const units = `${profile.unit}s`;
  const counted = `recipe: ${perInstance} ${devices === 1 ? profile.unit : units}`;
  if (profile.devicesPerCard === 1) return { value: cards, how: counted };
  return { value: cards, how: `${counted} = ${cards} ${name} cards (${profile.devicesPerCard} ${units} per card)` };
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

/**
 * `PD separation` when the recipe has prefill/decode instances or the label says so, `PD mixed` for
 * a single server. The `deploy=simulated` that bench runs were labelled with before they kept their
 * server's report says what the run is, not how it was deployed: the recipe says that.
 */
export function deriveDeployMode(run: RunRecord): string | null {
  const label = run.labels.deploy;
  if (label && label !== 'simulated') return /sep|disagg/i.test(label) ? 'PD separation' : /mix|colo/i.test(label) ? 'PD mixed' : label;
  const mode = run.recipe ? deployMode(run.recipe) : null;
  return mode === null ? null : mode === 'pd-separated' ? 'PD separation' : 'PD mixed';
}

const QUANT_IN_NAME = /(?:^|[-_./])(w8a8|w4a8|w4a16|w8a16|fp8|nvfp4|mxfp4|fp4|int8|int4|awq|gptq)(?=$|[-_./])/i;

/**
 * Quantization: the label (a summary table's), else a format token in the model name (`-w8a8-`),
 * else the launch `--quantization` (which may name a loader such as `modelslim` rather than a format),
 * else the weights' format the server reported (the sim's: `bf16` where SGLang reports no quantization).
 */
export function deriveQuantization(run: RunRecord): Derived<string> | null {
  if (run.labels.quantization) return { value: run.labels.quantization, how: 'label' };
  const inName = run.model ? QUANT_IN_NAME.exec(run.model) : null;
  if (inName) return { value: inName[1]!.toUpperCase(), how: 'model name' };
  const flag = run.recipe?.instances.find((i) => i.config.quantization)?.config.quantization;
  if (flag) return { value: flag, how: 'launch --quantization' };
  const weights = run.recipe?.instances.find((i) => i.weightFormat)?.weightFormat;
  return weights ? { value: weights, how: 'weights reported by the server' } : null;
}

/** What a recipe states of one instance, as flat settings: its launch facts, and the device and weights its server reported. */
export function instanceFacts(instance: RecipeInstance): Record<string, unknown> {
  return {
    ...instance.config,
    ...(instance.hardware === undefined ? {} : { hardware: instance.hardware.key }),
    ...(instance.weightFormat === undefined ? {} : { weights: instance.weightFormat }),
  };
}

/** The model's short name: the last path part (`/root/models/Qwen3-8B` → `Qwen3-8B`). */
export function shortModelName(run: RunRecord): string | null {
  return run.model ? basename(run.model.replace(/\/+$/, '')) : null;
}
