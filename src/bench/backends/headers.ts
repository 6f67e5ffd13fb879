/**
 * Request headers of spec §2.1: auth from the environment, then `--header Key=Value` entries,
 * then the dataset row's routing key. Values are secrets: they are sent, never printed.
 */

export const ROUTING_KEY_HEADER = 'X-SMG-Routing-Key';

/** `Authorization` from `OPENAI_API_KEY` (Bearer) or else `API_KEY` (raw value); empty when neither is set. */
export function authHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const openaiKey = env.OPENAI_API_KEY;
  if (openaiKey) return { Authorization: `Bearer ${openaiKey}` };
  const apiKey = env.API_KEY;
  if (apiKey) return { Authorization: apiKey };
  return {};
}

/** Parses `--header` entries, split at the first `=`; entries with an empty key or value are dropped. */
export function parseCustomHeaders(entries: readonly string[] | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries ?? []) {
    const at = entry.indexOf('=');
    if (at <= 0) continue;
    const key = entry.slice(0, at).trim();
    const value = entry.slice(at + 1).trim();
    if (key && value) headers[key] = value;
  }
  return headers;
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
