/**
 * Where a request goes and the bytes that ask for it: pure, no I/O. A request is written in one
 * piece (head and body together), so the server sees it in one segment.
 */

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
}

export function resolveTarget(url: string): Target {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'https:';
  if (!tls && parsed.protocol !== 'http:') throw new Error(`unsupported URL scheme ${parsed.protocol} in ${url}`);
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return {
    origin: parsed.origin,
    tls,
    host,
    port: parsed.port === '' ? (tls ? 443 : 80) : Number(parsed.port),
    hostHeader: parsed.host,
    path: parsed.pathname + parsed.search,
  };
}

/** Framing headers the client writes itself; a caller's value for them would break the framing. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);
const INVALID_HEADER_VALUE = /[\r\n\0]/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The request as one string: request line, `Host` (unless the caller sets it), the caller's
 * headers, `Content-Length` when there is a body or the method is POST, `Connection: keep-alive`,
 * then the body. Throws on a header that would corrupt the request (CR/LF in a value).
 */
export function serializeRequest(
  method: string,
  target: Target,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
): string {
  let head = `${method} ${target.path} HTTP/1.1\r\n`;
  let hasHost = false;
  for (const name in headers) {
    const value = headers[name]!;
    if (!HEADER_NAME.test(name) || INVALID_HEADER_VALUE.test(value)) throw new Error(`invalid request header ${JSON.stringify(name)}`);
    const lower = name.toLowerCase();
    if (FRAMING_HEADERS.has(lower)) continue;
    if (lower === 'host') hasHost = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!hasHost) head += `Host: ${target.hostHeader}\r\n`;
  if (body !== undefined || method === 'POST') head += `Content-Length: ${body === undefined ? 0 : Buffer.byteLength(body)}\r\n`;
  return `${head}Connection: keep-alive\r\n\r\n${body ?? ''}`;
}
