/**
 * Which headers cross the router (header_utils.rs): the client's auth and tracing headers go to the
 * workers; a worker's answer comes back without hop-by-hop headers. Pure.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

const FORWARDED = new Set(['authorization', 'x-request-id', 'x-correlation-id', 'traceparent', 'tracestate', 'x-smg-routing-key']);

/** The request headers sent on to a worker; with --api-key its Bearer replaces the client's. */
export function forwardedHeaders(incoming: IncomingHttpHeaders, apiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (typeof value === 'string' && (FORWARDED.has(name) || name.startsWith('x-request-id-'))) headers[name] = value;
  }
  if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A worker's response headers as the client gets them. */
export function answerHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(upstream).filter(([name]) => !HOP_BY_HOP.has(name)));
}
