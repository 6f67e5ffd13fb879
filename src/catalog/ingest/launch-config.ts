/**
 * Turns an SGLang launch (or router) command into a structured deployment: the flags that shape
 * performance (tp, dp, ep, dp-attention, max running requests, chunked prefill, speculative
 * decoding, disaggregation mode, quantization, nnodes, context length, ...) plus every flag as given.
 * Values the text does not give (or gives only as a shell variable) stay absent.
 *
 * A launch that a script runs once per node (a loop giving each node its `--node-rank`) is one
 * instance per `--nnodes` nodes: a two-node instance's runs are one instance whose per-node values
 * are listed (`--node-rank 0,1`), two single-node runs two instances.
 */
import { redactSetting } from '../../core/redact.js';
import { serverRole, sglangFlagName, type DeploymentFlags } from '../../deployment/index.js';
import type { RecipeInstance } from '../types.js';
import { type FoundCommand, parseFlags } from './shell-command.js';

/** How a setting's value is written: what a flag's text must read as, and what a server's JSON must hold. */
export type FieldKind = 'int' | 'float' | 'string' | 'bool';

/**
 * SGLang's flags (as servebench names them; every spelling SGLang accepts maps to these) → structured
 * field. SGLang's `/get_server_info` reports each under the flag's name in snake_case (`tp_size`).
 */
export const DEPLOYMENT_SETTINGS: ReadonlyArray<readonly [flag: string, field: keyof DeploymentFlags, kind: FieldKind]> = [
  ['model-path', 'modelPath', 'string'],
  ['served-model-name', 'servedModelName', 'string'],
  ['tp-size', 'tpSize', 'int'],
  ['dp-size', 'dpSize', 'int'],
  ['ep-size', 'epSize', 'int'],
  ['pp-size', 'ppSize', 'int'],
  ['enable-dp-attention', 'enableDpAttention', 'bool'],
  ['enable-dp-lm-head', 'enableDpLmHead', 'bool'],
  ['max-running-requests', 'maxRunningRequests', 'int'],
  ['max-total-tokens', 'maxTotalTokens', 'int'],
  ['chunked-prefill-size', 'chunkedPrefillSize', 'int'],
  ['max-prefill-tokens', 'maxPrefillTokens', 'int'],
  ['context-length', 'contextLength', 'int'],
  ['mem-fraction-static', 'memFractionStatic', 'float'],
  ['kv-cache-dtype', 'kvCacheDtype', 'string'],
  ['quantization', 'quantization', 'string'],
  ['dtype', 'dtype', 'string'],
  ['page-size', 'pageSize', 'int'],
  ['disable-radix-cache', 'disableRadixCache', 'bool'],
  ['speculative-algorithm', 'speculativeAlgorithm', 'string'],
  ['speculative-num-steps', 'speculativeNumSteps', 'int'],
  ['speculative-eagle-topk', 'speculativeEagleTopk', 'int'],
  ['speculative-num-draft-tokens', 'speculativeNumDraftTokens', 'int'],
  ['disaggregation-mode', 'disaggregationMode', 'string'],
  ['nnodes', 'nnodes', 'int'],
  ['moe-a2a-backend', 'moeA2aBackend', 'string'],
  ['deepep-mode', 'deepepMode', 'string'],
  ['device', 'device', 'string'],
];

/** The structured fields' SGLang flags, for a check that each is one SGLang names. */
export const DEPLOYMENT_FLAG_NAMES: readonly string[] = DEPLOYMENT_SETTINGS.map(([flag]) => flag);

/** The structured fields, in table order: what a recipe can state about a server's configuration. */
export const DEPLOYMENT_FIELDS: readonly (keyof DeploymentFlags)[] = DEPLOYMENT_SETTINGS.map(([, field]) => field);

function readField(kind: FieldKind, value: string | true): string | number | boolean | undefined {
  if (kind === 'bool') return value === true || /^(true|1)$/i.test(value);
  if (value === true) return undefined;
  if (kind === 'string') return value;
  const n = Number(value);
  if (!Number.isFinite(n) || (kind === 'int' && !Number.isInteger(n))) return undefined;
  return n;
}

/** Builds the structured instance of one run of a launch or router command; unreadable values become warnings. */
export function parseDeploymentInstance(command: FoundCommand, warnings: string[]): RecipeInstance {
  return instanceOf(command, parseFlags(command.args).flags, warnings);
}

/** Flags of several runs of one command: a value all runs share, else the runs' values in order, comma-separated. */
function perNodeFlags(runs: readonly string[][]): Record<string, string | true> {
  const parsed = runs.map((args) => parseFlags(args).flags);
  const merged: Record<string, string | true> = {};
  for (const name of new Set(parsed.flatMap((f) => Object.keys(f)))) {
    const values = parsed.map((f) => f[name]).filter((v): v is string | true => v !== undefined);
    merged[name] = new Set(values).size === 1 ? values[0]! : values.map(String).join(',');
  }
  return merged;
}

/**
 * The instances a command deploys: one, or, when a script runs it once per node with different
 * arguments, one per group of `--nnodes` runs.
 */
export function parseDeploymentInstances(command: FoundCommand, warnings: string[]): RecipeInstance[] {
  const runs = command.runs ?? [command.args];
  if (new Set(runs.map((args) => JSON.stringify(args))).size <= 1) return [parseDeploymentInstance(command, warnings)];
  const nnodes = Number(parseFlags(command.args).flags['--nnodes'] ?? 1);
  const perInstance = Number.isInteger(nnodes) && nnodes > 0 ? nnodes : 1;
  if (runs.length % perInstance !== 0) {
    warnings.push(`${command.launcher} runs ${runs.length} times but --nnodes is ${perInstance}; each group of ${perInstance} runs read as one instance`);
  }
  const instances: RecipeInstance[] = [];
  for (let i = 0; i < runs.length; i += perInstance) instances.push(instanceOf(command, perNodeFlags(runs.slice(i, i + perInstance)), warnings));
  return instances;
}

/** Flags as a recipe keeps them: as given, secrets redacted. */
export function redactedFlags(given: Readonly<Record<string, string | true>>): Record<string, string | true> {
  const flags: Record<string, string | true> = {};
  for (const [name, value] of Object.entries(given)) flags[name] = redactSetting(name, value);
  return flags;
}

function instanceOf(command: Pick<FoundCommand, 'kind' | 'launcher'>, given: Record<string, string | true>, warnings: string[]): RecipeInstance {
  const flags = redactedFlags(given);
  const written = new Map<string, string>();
  for (const name of Object.keys(flags)) {
    const flag = sglangFlagName(name);
    if (flag !== null && !written.has(flag)) written.set(flag, name);
  }
  const config: DeploymentFlags = {};
  for (const [flag, field, kind] of DEPLOYMENT_SETTINGS) {
    const name = written.get(flag);
    if (name === undefined) continue;
    const raw = flags[name]!;
    if (typeof raw === 'string' && raw.includes('$')) {
      warnings.push(`${name} is the shell variable ${raw}; its value is unknown`);
      continue;
    }
    const value = readField(kind, raw);
    if (value === undefined) warnings.push(`${name} has an unreadable value '${String(raw)}'`);
    else (config as Record<string, unknown>)[field] = value;
  }
  const role = command.kind === 'router' ? 'router' : serverRole(config.disaggregationMode);
  return { role, launcher: command.launcher, config, flags };
}
