/**
 * Turns an SGLang launch (or router) command into a structured deployment: the flags that shape
 * performance (tp, dp, ep, dp-attention, max running requests, chunked prefill, speculative
 * decoding, disaggregation mode, quantization, nnodes, context length, ...) plus every flag as given.
 * Values the text does not give (or gives only as a shell variable) stay absent.
 */
import { redactSetting } from '../../core/redact.js';
import { serverRole } from '../../sim/index.js';
import type { DeploymentFlags, RecipeInstance } from '../types.js';
import type { FoundCommand } from './shell-command.js';
import { parseFlags } from './shell-command.js';

type FieldKind = 'int' | 'float' | 'string' | 'bool';

/** Flag spellings (SGLang's own aliases included) → structured field. */
const FIELDS: ReadonlyArray<readonly [flags: readonly string[], field: keyof DeploymentFlags, kind: FieldKind]> = [
  [['--model-path', '--model'], 'modelPath', 'string'],
  [['--served-model-name'], 'servedModelName', 'string'],
  [['--tp', '--tp-size', '--tensor-parallel-size'], 'tpSize', 'int'],
  [['--dp', '--dp-size', '--data-parallel-size'], 'dpSize', 'int'],
  [['--ep', '--ep-size', '--expert-parallel-size'], 'epSize', 'int'],
  [['--pp', '--pp-size', '--pipeline-parallel-size'], 'ppSize', 'int'],
  [['--enable-dp-attention'], 'enableDpAttention', 'bool'],
  [['--enable-dp-lm-head'], 'enableDpLmHead', 'bool'],
  [['--max-running-requests'], 'maxRunningRequests', 'int'],
  [['--max-total-tokens'], 'maxTotalTokens', 'int'],
  [['--chunked-prefill-size'], 'chunkedPrefillSize', 'int'],
  [['--max-prefill-tokens'], 'maxPrefillTokens', 'int'],
  [['--context-length'], 'contextLength', 'int'],
  [['--mem-fraction-static'], 'memFractionStatic', 'float'],
  [['--kv-cache-dtype'], 'kvCacheDtype', 'string'],
  [['--quantization'], 'quantization', 'string'],
  [['--dtype'], 'dtype', 'string'],
  [['--page-size'], 'pageSize', 'int'],
  [['--disable-radix-cache'], 'disableRadixCache', 'bool'],
  [['--speculative-algorithm', '--speculative-algo'], 'speculativeAlgorithm', 'string'],
  [['--speculative-num-steps'], 'speculativeNumSteps', 'int'],
  [['--speculative-eagle-topk'], 'speculativeEagleTopk', 'int'],
  [['--speculative-num-draft-tokens'], 'speculativeNumDraftTokens', 'int'],
  [['--disaggregation-mode'], 'disaggregationMode', 'string'],
  [['--nnodes'], 'nnodes', 'int'],
  [['--moe-a2a-backend'], 'moeA2aBackend', 'string'],
  [['--deepep-mode'], 'deepepMode', 'string'],
];

/** The structured fields, in table order: what a recipe can state about a server's configuration. */
export const DEPLOYMENT_FIELDS: readonly (keyof DeploymentFlags)[] = FIELDS.map(([, field]) => field);

function readField(kind: FieldKind, value: string | true): string | number | boolean | undefined {
  if (kind === 'bool') return value === true || /^(true|1)$/i.test(value);
  if (value === true) return undefined;
  if (kind === 'string') return value;
  const n = Number(value);
  if (!Number.isFinite(n) || (kind === 'int' && !Number.isInteger(n))) return undefined;
  return n;
}

/** Builds the structured instance of a launch or router command; unreadable values become warnings. */
export function parseDeploymentInstance(command: FoundCommand, warnings: string[]): RecipeInstance {
  const { flags: given } = parseFlags(command.args);
  const flags: Record<string, string | true> = {};
  for (const [name, value] of Object.entries(given)) flags[name] = redactSetting(name, value);
  const config: DeploymentFlags = {};
  for (const [names, field, kind] of FIELDS) {
    const name = names.find((n) => n in flags);
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
