/**
 * Whether two runs were served by the same server configuration, from what each states: the
 * model, the `hardware` label, whether the server was the sim, and the performance-shaping launch
 * settings (from the server's `/get_server_info`, else from the recipe's launch commands). Two runs
 * are alike when their models are the same and nothing both state differs; a run that states no
 * settings (a vLLM server, a console log without its launch command) is alike by model alone.
 * This is what ties an accuracy run (`servebench eval`) to the performance runs it belongs beside. Pure.
 */
import { isSimServerVersion } from '../../core/version.js';
import { DEPLOYMENT_FIELDS } from '../ingest/launch-config.js';
import type { DeploymentFlags } from '../../deployment/index.js';
import type { RunRecord } from '../types.js';
import { shortModelName } from './run-facts.js';

type Settings = Map<string, unknown>;

/**
 * The model is compared by its short name instead: a server reports the path it loaded
 * (`/models/Qwen3-8B`) where a recipe may give the hub name (`Qwen/Qwen3-8B`).
 */
const MODEL_FIELDS = new Set<keyof DeploymentFlags>(['modelPath', 'servedModelName']);
const COMPARED_FIELDS = DEPLOYMENT_FIELDS.filter((field) => !MODEL_FIELDS.has(field));

/** `tpSize` → `tp_size`: SGLang's server-info name of a launch setting. */
function serverInfoName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutUnset(entries: Array<[string, unknown]>): Settings {
  return new Map(entries.filter(([, value]) => value !== null && value !== undefined));
}

/** The settings a run states: one set from its server info, else one per server of its recipe; none when it states neither. */
function statedSettings(run: RunRecord): Settings[] {
  const info = run.serverInfo;
  if (isRecord(info) && COMPARED_FIELDS.some((field) => serverInfoName(field) in info)) {
    return [withoutUnset(COMPARED_FIELDS.map((field) => [field, info[serverInfoName(field)]]))];
  }
  const servers = run.recipe?.instances.filter((instance) => instance.role !== 'router') ?? [];
  return servers.map((server) => withoutUnset(COMPARED_FIELDS.map((field) => [field, server.config[field]])));
}

/** True for the sim, false for another server that reported itself, null when the run does not say. */
function servedBySim(run: RunRecord): boolean | null {
  const version = isRecord(run.serverInfo) ? run.serverInfo.version : undefined;
  if (typeof version === 'string') return isSimServerVersion(version);
  return run.labels.deploy === 'simulated' ? true : null;
}

function agree(a: Settings, b: Settings): boolean {
  for (const [field, value] of a) if (b.has(field) && b.get(field) !== value) return false;
  return true;
}

/** Whether `a` and `b` ran against the same server configuration, as far as both state it. */
export function sameServerConfiguration(a: RunRecord, b: RunRecord): boolean {
  const modelA = shortModelName(a)?.toLowerCase();
  if (modelA === undefined || modelA !== shortModelName(b)?.toLowerCase()) return false;
  const hardwareA = a.labels.hardware;
  const hardwareB = b.labels.hardware;
  if (hardwareA !== undefined && hardwareB !== undefined && hardwareA !== hardwareB) return false;
  const simA = servedBySim(a);
  const simB = servedBySim(b);
  if (simA !== null && simB !== null && simA !== simB) return false;
  const settingsA = statedSettings(a);
  const settingsB = statedSettings(b);
  if (settingsA.length === 0 || settingsB.length === 0) return true;
  return settingsA.some((sa) => settingsB.some((sb) => agree(sa, sb)));
}
