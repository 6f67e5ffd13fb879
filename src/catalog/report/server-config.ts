/**
 * Whether two runs were served by the same server configuration, from what each states: the
 * model, the hardware (label, else the device the server reported), whether the server was the sim,
 * and the performance-shaping launch settings (from the server's `/get_server_info`, else from the
 * recipe's launch commands). Two runs are alike when their models are the same and nothing both
 * state differs; a run that states no settings (a vLLM server, a console log without its launch
 * command) is alike by model alone. This is what ties an accuracy run (`servebench eval`) to the
 * performance runs it belongs beside. Pure.
 */
import { servers, type DeploymentFlags } from '../../deployment/index.js';
import { DEPLOYMENT_FIELDS } from '../ingest/launch-config.js';
import { reportsSimServer, serverBodies } from '../ingest/server-bodies.js';
import { recipeFromServerInfo } from '../ingest/server-info.js';
import type { RecipeConfig, RunRecord } from '../types.js';
import { deriveHardware, shortModelName } from './run-facts.js';

type Settings = Map<string, unknown>;

/**
 * The model is compared by its short name instead: a server reports the path it loaded
 * (`/models/Qwen3-8B`) where a recipe may give the hub name (`Qwen/Qwen3-8B`).
 */
const MODEL_FIELDS = new Set<keyof DeploymentFlags>(['modelPath', 'servedModelName']);
const COMPARED_FIELDS = DEPLOYMENT_FIELDS.filter((field) => !MODEL_FIELDS.has(field));

function withoutUnset(entries: Array<[string, unknown]>): Settings {
  return new Map(entries.filter(([, value]) => value !== null && value !== undefined));
}

/** The settings each server of a recipe states (servers that state none left out). */
function settingsOf(recipe: RecipeConfig | null): Settings[] {
  if (recipe === null) return [];
  return servers(recipe)
    .map((server) => withoutUnset(COMPARED_FIELDS.map((field) => [field, server.config[field]])))
    .filter((settings) => settings.size > 0);
}

/** The settings a run states, one set per server: its server info's, else its recipe's; none when it states neither. */
function statedSettings(run: RunRecord): Settings[] {
  const reported = settingsOf(recipeFromServerInfo(run.serverInfo));
  return reported.length > 0 ? reported : settingsOf(run.recipe);
}

/** True for the sim, false for another server that reported its version, null when the run does not say. */
function servedBySim(run: RunRecord): boolean | null {
  if (serverBodies(run.serverInfo).some(({ body }) => typeof body.version === 'string')) return reportsSimServer(run.serverInfo);
  // Bench runs against the sim were labelled so before they kept the server's report.
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
  const hardwareA = deriveHardware(a)?.value;
  const hardwareB = deriveHardware(b)?.value;
  if (hardwareA !== undefined && hardwareB !== undefined && hardwareA !== hardwareB) return false;
  const simA = servedBySim(a);
  const simB = servedBySim(b);
  if (simA !== null && simB !== null && simA !== simB) return false;
  const settingsA = statedSettings(a);
  const settingsB = statedSettings(b);
  if (settingsA.length === 0 || settingsB.length === 0) return true;
  return settingsA.some((sa) => settingsB.some((sb) => agree(sa, sb)));
}
