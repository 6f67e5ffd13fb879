/**
 * Keeps secrets out of the catalog: API keys and header values never reach a stored row, a
 * printed table or an exported file.
 */

/** Shown instead of a secret. */
export const REDACTED = '<redacted>';

/** Names whose values are secrets: `api_key`, `--api-key`, `OPENAI_API_KEY`, `authorization`, `hf_token`, ... */
const SECRET_NAME = /(api[_-]?key|secret|password|passwd|authorization|auth[_-]?token|access[_-]?token|bearer|hf[_-]?token|credential)/i;

/** True when a setting with this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `Key=Value` header strings with the value hidden (bench_serving's `--header`). */
function redactHeaders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((h) => (typeof h === 'string' ? `${h.split('=')[0]}=${REDACTED}` : REDACTED));
  return value === null || value === undefined ? value : REDACTED;
}

/** A copy of bench args (snake_case or camelCase) with secret-bearing values replaced; nested objects too. */
export function redactArgs<T>(args: T): T {
  return redactValue(args) as T;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'header' || key === 'headers') out[key] = redactHeaders(v);
    else if (isSecretName(key)) out[key] = v === null || v === undefined ? v : REDACTED;
    else out[key] = redactValue(v);
  }
  return out;
}
