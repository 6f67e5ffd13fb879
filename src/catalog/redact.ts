/**
 * Keeps secrets out of the catalog: API keys and header values never reach a stored row, a
 * printed table or an exported file.
 */
import { REDACTED, redactHeader } from '../bench/args/namespace.js';

export { REDACTED };

/** Names whose values are secrets: `api_key`, `--api-key`, `OPENAI_API_KEY`, `authorization`, `hf_token`, ... */
const SECRET_NAME = /(api[_-]?key|secret|password|passwd|authorization|auth[_-]?token|access[_-]?token|bearer|hf[_-]?token|credential)/i;

/** True when a setting with this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** bench_serving's `--header` list, hidden as the printed Namespace hides it. */
function redactHeaders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((h) => (typeof h === 'string' ? redactHeader(h) : REDACTED));
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
