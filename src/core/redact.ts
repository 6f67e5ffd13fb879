/**
 * The one redaction: API keys, Authorization headers, bearer tokens and passwords in URLs never
 * reach printed args, logs, stored rows or result files. Every place that shows or stores
 * arguments asks this module, so one marker and one rule decide what is a secret.
 */
import { HEADER_NAME, splitHeaderEntry } from './header-entry.js';

/** Printed and stored in place of a secret; bench's Namespace line and the catalog pin this spelling. */
export const REDACTED = '<redacted>' as const;

/**
 * Names whose values are secrets, in any spelling: `api_key`, `--api-key`, `--admin-api-key`,
 * `OPENAI_API_KEY`, `authorization`, `hf_token`, a URL's `?access_token=`; a bare `key` or
 * `token` as well (query parameters are often named so). Words that merely contain "token"
 * (`max_total_tokens`, `tokenizer`) are not secrets.
 */
const SECRET_NAME = /api[_-]?key|secret|password|passwd|authorization|auth[_-]?token|access[_-]?token|bearer|hf[_-]?token|credential|^-*(?:key|token)$/i;

/** A value that is a credential whatever its name says: `Bearer <token>`. */
const BEARER_VALUE = /^\s*bearer\s/i;

/** A URL inside text: scheme, `://`, then everything up to white space or a quote. */
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi;

/** The userinfo of a URL (`user:password@` or `token@`), up to the first `/`, `?` or `#`. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i;

/**
 * A flag and its value inside a command line held as one string (`--sim "--api-key K"`, a pasted
 * launch command): `--name value` or `--name=value`, the value quoted or a word not starting with `-`.
 */
const FLAG_IN_TEXT = /(^|\s)(--?[A-Za-z][\w.-]*)(=|\s+)("[^"]*"|'[^']*'|[^\s"'-][^\s"']*)/g;

/** One `name=value` query parameter, with the `?` or `&` before it. */
const QUERY_PARAMETER = /([?&])([^=&#]+)=([^&#]*)/g;

/** True when a setting, flag, header, environment variable or query parameter with this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** One URL with its password (or a userinfo token) and the values of secret query parameters hidden. */
function redactUrl(url: string): string {
  const withoutUserinfo = url.replace(USERINFO, (_, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? `${scheme}${REDACTED}@` : `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`;
  });
  return withoutUserinfo.replace(QUERY_PARAMETER, (whole, separator: string, name: string) =>
    isSecretName(name) ? `${separator}${name}=${REDACTED}` : whole,
  );
}

/** Text with the credentials of every URL in it hidden; text without a URL comes back unchanged. */
function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, redactUrl);
}

/** Text with the values of secret flags in it hidden; text without such a flag comes back unchanged. */
function redactFlagsIn(text: string): string {
  return text.replace(FLAG_IN_TEXT, (whole, before: string, flag: string, separator: string) =>
    isSecretName(flag) ? `${before}${flag}${separator}${REDACTED}` : whole,
  );
}

/**
 * A string as it may be shown, printed or stored: a bearer token hidden whole; else the values of
 * secret flags and the credentials of URLs inside it hidden.
 */
export function redactText(value: string): string {
  return BEARER_VALUE.test(value) ? REDACTED : redactUrls(redactFlagsIn(value));
}

/**
 * The value of a named setting as it may be shown. Under a secret name anything but null,
 * undefined or a boolean is hidden whole (those say only whether the secret was set); under any
 * other name the value is shown with the secrets inside it hidden.
 */
export function redactSetting<T>(name: string, value: T): T | typeof REDACTED {
  if (!isSecretName(name)) return redactValue(value);
  return value === null || value === undefined || typeof value === 'boolean' ? value : REDACTED;
}

/**
 * A `--header` entry: `Key=Value` → `Key=<redacted>`, `Key: Value` → `Key: <redacted>`; an entry
 * without a separator, or whose key is not a header name (a pasted token), is hidden whole. Every
 * header's value is hidden, not only Authorization's: servers take keys under names of their own.
 */
export function redactHeader(entry: string): string {
  const parsed = splitHeaderEntry(entry);
  if (parsed === null || !HEADER_NAME.test(parsed.name)) return REDACTED;
  return parsed.separator === '=' ? `${parsed.name}=${REDACTED}` : `${parsed.name}: ${REDACTED}`;
}

/** A header list as stored with args: each entry as `redactHeader` shows it, anything else hidden whole. */
function redactHeaders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((entry) => (typeof entry === 'string' ? redactHeader(entry) : REDACTED));
  return value === null || value === undefined ? value : REDACTED;
}

/**
 * A copy of a JSON-like value (bench args in snake_case or camelCase, a server-info body) with
 * every secret hidden, nested objects and arrays included; anything else (numbers, PyFloat) as is.
 */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map(redactValue) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    out[key] = key === 'header' || key === 'headers' ? redactHeaders(entry) : redactSetting(key, entry);
  }
  return out as T;
}

/** An object literal or parsed JSON; class instances such as PyFloat are values, not records to walk. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A command line with the values of secret flags hidden (`--api-key K`, `--api-key=K`) and every
 * other argument shown as `redactText` shows it. `fullName` maps a flag as written to the name it
 * stands for, so an abbreviation argparse accepts (`--api-k`) is recognised too.
 */
export function redactArgv(argv: readonly string[], fullName: (written: string) => string = (written) => written): string[] {
  const out: string[] = [];
  let valueIsSecret = false;
  for (const arg of argv) {
    if (valueIsSecret) {
      out.push(REDACTED);
      valueIsSecret = false;
      continue;
    }
    const flag = /^--([^=]+)(=.*)?$/.exec(arg);
    const secret = flag !== null && isSecretName(fullName(flag[1]!));
    if (secret && flag[2] !== undefined) out.push(`--${flag[1]}=${REDACTED}`);
    else {
      out.push(redactText(arg));
      valueIsSecret = secret;
    }
  }
  return out;
}
