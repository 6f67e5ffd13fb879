/**
 * The router's own error responses (SGLang's `routers/error.rs`): a status, the body
 * `{"error":{"type":<reason phrase>,"code":<code>,"message":<message>}}` and the code again in
 * `X-SMG-Error-Code`; and how a prefill or decode worker's refusal becomes one. Pure.
 */
import { STATUS_CODES } from 'node:http';

export interface RouterError {
  status: number;
  code: string;
  message: string;
}

export const ERROR_CODE_HEADER = 'x-smg-error-code';

/** The JSON body of a router error. */
export function errorBody(error: RouterError): string {
  return JSON.stringify({ error: { type: STATUS_CODES[error.status] ?? 'Error', code: error.code, message: error.message } });
}

/** Statuses passed through with a code of their own; any other becomes 500 `<side>_error`. */
const PASSED_THROUGH: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'unavailable',
};

/** A prefill or decode worker's non-2xx answer as the router's error (PR L1263-1340). */
export function workerRefusal(side: 'prefill' | 'decode', status: number, message: string): RouterError {
  const code = PASSED_THROUGH[status];
  const label = side === 'prefill' ? 'Prefill' : 'Decode';
  return code === undefined
    ? { status: 500, code: `${side}_error`, message: `${label} server error (${status}): ${message}` }
    : { status, code: `${side}_${code}`, message: `${label} server error (${status}): ${message}` };
}

/** A worker that could not be reached, or did not answer within --request-timeout-secs. */
export function workerUnreachable(side: 'prefill' | 'decode' | 'worker', url: string, reason: string): RouterError {
  return { status: 502, code: `${side}_server_error`, message: `${side} server ${url} failed: ${reason}` };
}

/** The message inside a worker's error body: `error.message`, else `message`, else the body itself (PR L522-644). */
export function upstreamMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown }; message?: unknown };
    if (typeof parsed?.error?.message === 'string') return parsed.error.message;
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the body is the message.
  }
  return body;
}

/**
 * The one SSE chunk a stream gets when the decode refuses: SGLang's router writes it with a
 * single-quoted key and no closing blank line (PR L556-561), and clients parse exactly that.
 */
export function streamErrorChunk(status: number, body: string): string {
  let message: string;
  try {
    JSON.parse(body);
    message = body.trim();
  } catch {
    message = JSON.stringify(body);
  }
  return `data: {'error': {"message":${message},"status":${status}}}`;
}
