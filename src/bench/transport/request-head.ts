/**
 * Where a request goes and the bytes that ask for it: pure, no I/O. A request is written in one
 * piece (head and body together), so the server sees it in one segment.
 */
import { HEADER_NAME } from '../../core/header-entry.js';
import { redactText } from '../../core/redact.js';

/** A URL resolved into what a connection needs. */
export interface Target {
  /** Pool key: connections are shared per scheme, host and port. */
  origin: string;
  tls: boolean;
  /** Host name or address to connect to (IPv6 without brackets). */
  host: string;
  port: number;
  /** The `Host` header value. */
  hostHeader: string;
  /** Path and query. */
  path: string;
  /** `Basic …` from the URL's `user:password@`, or null: the URL's credentials are sent, never the URL. */
  basicAuth: string | null;
}

/** A userinfo part as typed: percent-escapes decoded (as aiohttp does), or kept when malformed. */
function decodeUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * bench_serving's aiohttp client turns `http://user:password@host` into an `Authorization: Basic`
 * header on every request; so does servebench. UTF-8, the one charset RFC 7617 names.
 */
function basicAuthOf(parsed: URL): string | null {
  if (parsed.username === '' && parsed.password === '') return null;
  const credentials = `${decodeUserinfo(parsed.username)}:${decodeUserinfo(parsed.password)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

export function resolveTarget(url: string): Target {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'https:';
  if (!tls && parsed.protocol !== 'http:') throw new Error(`unsupported URL scheme ${parsed.protocol} in ${redactText(url)}`);
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return {
    origin: parsed.origin,
    tls,
    host,
    port: parsed.port === '' ? (tls ? 443 : 80) : Number(parsed.port),
    hostHeader: parsed.host,
    path: parsed.pathname + parsed.search,
    basicAuth: basicAuthOf(parsed),
  };
}

/** Framing headers the client writes itself; a caller's value for them would break the framing. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);
const INVALID_HEADER_VALUE = /[\r\n\0]/;

/**
 * The request as one string: request line, `Host` (unless the caller sets it), the caller's
 * headers, the URL's Basic credentials unless the caller sends an `Authorization` of its own
 * (an API key or `--header` is the explicit choice; aiohttp would refuse both at once),
 * `Content-Length` when there is a body or the method is POST, `Connection: keep-alive`, then the
 * body. Throws on a header that would corrupt the request (CR/LF in a value).
 */
export function serializeRequest(
  method: string,
  target: Target,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
): string {
  let head = `${method} ${target.path} HTTP/1.1\r\n`;
  let hasHost = false;
  let hasAuthorization = false;
  for (const name in headers) {
    const value = headers[name]!;
    if (!HEADER_NAME.test(name) || INVALID_HEADER_VALUE.test(value)) throw new Error(`invalid request header ${JSON.stringify(name)}`);
    const lower = name.toLowerCase();
    if (FRAMING_HEADERS.has(lower)) continue;
    if (lower === 'host') hasHost = true;
    else if (lower === 'authorization') hasAuthorization = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!hasHost) head += `Host: ${target.hostHeader}\r\n`;
  if (!hasAuthorization && target.basicAuth !== null) head += `Authorization: ${target.basicAuth}\r\n`;
  if (body !== undefined || method === 'POST') head += `Content-Length: ${body === undefined ? 0 : Buffer.byteLength(body)}\r\n`;
  return `${head}Connection: keep-alive\r\n\r\n${body ?? ''}`;
}
