/**
 * A `--header` entry as typed on a command line: `Key: Value` (curl's form) or `Key=Value`
 * (bench_serving's). Shared by the request builder and the redactor, so what is sent and what is
 * hidden are split at the same place.
 */

/** An HTTP header name (RFC 9110 token): never holds `:` or `=`. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface HeaderEntry {
  /** The name as written, trimmed. */
  name: string;
  separator: ':' | '=';
  /** Everything after the separator, trimmed: later `:` and `=` belong to it (URLs, base64 padding). */
  value: string;
}

/** The entry split at its first `:` or `=`, whichever comes first; null when it has neither. */
export function splitHeaderEntry(entry: string): HeaderEntry | null {
  const colon = entry.indexOf(':');
  const equals = entry.indexOf('=');
  const at = colon < 0 ? equals : equals < 0 ? colon : Math.min(colon, equals);
  if (at < 0) return null;
  return { name: entry.slice(0, at).trim(), separator: entry[at] as ':' | '=', value: entry.slice(at + 1).trim() };
}
