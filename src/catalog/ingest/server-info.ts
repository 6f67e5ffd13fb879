/**
 * A server's `/get_server_info` read into the deployment it reports, stored as a run's recipe. bench
 * reads every server this way — the sim it starts (`--sim`), a sim started apart, a real SGLang
 * server — so a simulated run takes no path of its own. SGLang's body is its ServerArgs: each launch
 * setting that shapes performance under its flag's name in snake_case (`tp_size`, `quantization`,
 * `disaggregation_mode`, `device`); the sim's adds, under `servebench`, the device it simulates, the
 * weights' format and its flags as given; a PD router's lists its servers' bodies (server-bodies.ts).
 * Nothing is guessed: a setting a body leaves out, reports as null or in another type stays absent,
 * and the device's model is stated only where the server names it (SGLang names the kind: `device`
 * cuda or npu). Pure.
 */
import { isSimServerVersion } from '../../core/version.js';
import { readServebenchInfo, serverRole, type DeploymentFlags } from '../../deployment/index.js';
import type { RecipeConfig, RecipeInstance } from '../types.js';
import { DEPLOYMENT_SETTINGS, redactedFlags, type FieldKind } from './launch-config.js';
import { serverBodies, type ServerBody } from './server-bodies.js';
import { parseFlags } from './shell-command.js';

/** Where a recipe read from a server's body came from (`show` prints it as the recipe's origin). */
export const SERVER_INFO_ORIGIN = "the server's /get_server_info";

function holds(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case 'int':
      return Number.isInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string' && value !== '';
    case 'bool':
      return typeof value === 'boolean';
  }
}

/** The performance-shaping settings one server's body reports, each under its deployment field. */
export function serverInfoSettings(body: Readonly<Record<string, unknown>>): DeploymentFlags {
  const settings: Record<string, unknown> = {};
  for (const [flag, field, kind] of DEPLOYMENT_SETTINGS) {
    const value = body[flag.replaceAll('-', '_')];
    if (holds(kind, value)) settings[field] = value;
  }
  return settings as DeploymentFlags;
}

/** What served the body: the sim's version as it states it, SGLang's with its name before it. */
function serverName(body: Readonly<Record<string, unknown>>): string {
  const version = body.version;
  if (typeof version !== 'string' || version === '') return 'sglang';
  return isSimServerVersion(version) ? version : `sglang ${version}`;
}

/** One server of the deployment, or null when its body states nothing of it (a router's own counters, say). */
function instanceOf({ listedAs, body }: ServerBody): RecipeInstance | null {
  const config = serverInfoSettings(body);
  const { hardware, weightFormat, rawArgs } = readServebenchInfo(body);
  if (Object.keys(config).length === 0 && hardware === null) return null;
  return {
    role: listedAs ?? serverRole(config.disaggregationMode),
    launcher: serverName(body),
    config,
    flags: rawArgs === null ? {} : redactedFlags(parseFlags(rawArgs).flags),
    ...(hardware === null ? {} : { hardware }),
    ...(weightFormat === null ? {} : { weightFormat }),
  };
}

/** The deployment a `/get_server_info` body reports, one instance per server; null when it reports none. */
export function recipeFromServerInfo(body: unknown): RecipeConfig | null {
  const instances = serverBodies(body).flatMap((server) => instanceOf(server) ?? []);
  return instances.length === 0 ? null : { instances, env: {}, origin: SERVER_INFO_ORIGIN };
}
