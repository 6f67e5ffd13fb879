/**
 * The auxiliary calls of spec §8 (model discovery, cache flush, profiler, server info), on the same
 * pooled agent as the generation requests. They are off the hot path, so undici `request` is fine.
 */
import { request } from 'undici';
import type { HttpPool } from './httpPool.js';

/** Status and parsed JSON body (null when the body is not JSON) of a GET. Network errors throw. */
export async function getJson(
  pool: HttpPool,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const response = await request(url, { method: 'GET', headers, dispatcher: pool.agent });
  const text = await response.body.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.statusCode, body };
}

/**
 * `GET <base>/get_server_info` parsed with `parse` (JSON.parse, or a float-preserving parser for
 * the JSONL record): null when the status is not 200, the body does not parse, or the server
 * cannot be reached (Q23 F).
 */
export async function fetchServerInfo<T = unknown>(
  pool: HttpPool,
  baseUrl: string,
  headers: Record<string, string>,
  parse: (text: string) => T = JSON.parse,
): Promise<T | null> {
  try {
    const response = await request(`${baseUrl}/get_server_info`, { method: 'GET', headers, dispatcher: pool.agent });
    const text = await response.body.text();
    return response.statusCode === 200 ? parse(text) : null;
  } catch {
    return null;
  }
}

/** Result of a POST whose body is not needed: success on 200, else the reference's error text. */
export interface PostOutcome {
  ok: boolean;
  error: string;
}

/** POSTs `body` (JSON) or nothing; never throws. */
export async function postForStatus(
  pool: HttpPool,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<PostOutcome> {
  try {
    const response = await request(url, {
      method: 'POST',
      headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: pool.agent,
    });
    const text = await response.body.text();
    if (response.statusCode === 200) return { ok: true, error: '' };
    return { ok: false, error: `${response.statusText ?? ''}: ${text}` };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
