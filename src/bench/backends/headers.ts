/**
 * Request headers of spec §2.1: auth from the environment, then `--header` entries, then the
 * dataset row's routing key. Values are secrets: they are sent, never printed.
 */
import { splitHeaderEntry } from '../../core/header-entry.js';

export const ROUTING_KEY_HEADER = 'X-SMG-Routing-Key';

/** `Authorization` from `OPENAI_API_KEY` (Bearer) or else `API_KEY` (raw value); empty when neither is set. */
export function authHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const openaiKey = env.OPENAI_API_KEY;
  if (openaiKey) return { Authorization: `Bearer ${openaiKey}` };
  const apiKey = env.API_KEY;
  if (apiKey) return { Authorization: apiKey };
  return {};
}

/** Parses `--header` entries (`Key: Value` or `Key=Value`); entries with an empty key or value are dropped. */
export function parseCustomHeaders(entries: readonly string[] | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries ?? []) {
    const parsed = splitHeaderEntry(entry);
    if (parsed !== null && parsed.name && parsed.value) headers[parsed.name] = parsed.value;
  }
  return headers;
}

/**
 * The headers every request of a run carries. `--header` entries go on every request; the
 * environment's auth only where bench_serving sends it (not to the profiler, not to trt).
 */
export interface RunHeaders {
  /** Generation requests, model discovery, cache flush, server info: auth, then `--header` (which may override it). */
  withAuth: Record<string, string>;
  /** Profiler start/stop and trt generation: `--header` only. */
  withoutAuth: Record<string, string>;
}

/** The run's headers from the environment and the `--header` entries. */
export function runHeaders(env: NodeJS.ProcessEnv, entries: readonly string[] | null): RunHeaders {
  const custom = parseCustomHeaders(entries);
  return { withAuth: { ...authHeaders(env), ...custom }, withoutAuth: custom };
}

/** The headers of one generation request: auth, custom (which may override auth), routing key last. */
export function requestHeaders(
  base: Readonly<Record<string, string>>,
  routingKey: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...base };
  if (routingKey) headers[ROUTING_KEY_HEADER] = routingKey;
  return headers;
}
