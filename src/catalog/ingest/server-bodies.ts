/**
 * The servers a `/get_server_info` body speaks for: one SGLang server (or sim) answers with its own
 * body; a PD router's (SGLang's mini load balancer) lists its servers' bodies under `prefill` and
 * `decode`, and a record of a run behind SGLang's router lists its workers' the same way, its plain
 * workers under `regular` (each body then stands for itself). And whether servebench's sim
 * answered: its `version` says so. Pure.
 */
import { isObject } from '../../core/json-object.js';
import { isSimServerVersion } from '../../core/version.js';

/** One server's body, and the role a router's list gives it (null: the body stands for itself). */
export interface ServerBody {
  listedAs: 'prefill' | 'decode' | null;
  body: Record<string, unknown>;
}

function listed(body: Record<string, unknown>, role: 'prefill' | 'decode' | 'regular'): ServerBody[] {
  const list = body[role];
  return Array.isArray(list) ? list.filter(isObject).map((server) => ({ listedAs: role === 'regular' ? null : role, body: server })) : [];
}

/** The servers' bodies in `body`: a router's prefill and decode servers, else the body itself; none for a body that is no object. */
export function serverBodies(body: unknown): ServerBody[] {
  if (!isObject(body)) return [];
  const routed = [...listed(body, 'prefill'), ...listed(body, 'decode'), ...listed(body, 'regular')];
  return routed.length > 0 ? routed : [{ listedAs: null, body }];
}

/**
 * A run's server info: the `/get_server_info` body, and behind a router whose body is not the
 * deployment's, its workers' bodies by role (`{ prefill, decode, regular }`, as bench reads them)
 * listed beside it, as SGLang's mini load balancer lists its servers; the body alone without them.
 */
export function serverInfoWithWorkers(body: unknown, workers: unknown): unknown {
  return isObject(body) && isObject(workers) ? { ...body, ...workers } : body;
}

/** Whether servebench's sim answered (for a router: one of its servers). */
export function reportsSimServer(body: unknown): boolean {
  return serverBodies(body).some((server) => isSimServerVersion(server.body.version));
}
