/**
 * A failed request's cause and readable line, from the code of the error the transport or a
 * backend parser handed back: servebench's own codes, or Node's socket codes.
 */
import { BadStatusError } from '../transport/errors.js';
import type { FailureCause } from '../types.js';

export interface Failure {
  cause: FailureCause;
  message: string;
}

const CANNOT_CONNECT = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'E_CONNECTION_CLOSED']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The failure cause of a non-200 status: 429 (load shed) apart from other 4xx and from 5xx. */
function statusCause(status: number): FailureCause {
  if (status === 429) return 'http_429';
  if (status >= 400 && status < 500) return 'http_4xx';
  if (status >= 500 && status < 600) return 'http_5xx';
  return 'http_other';
}

export function failureOf(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof BadStatusError) return { cause: statusCause(error.status), message };
  // A socket error may arrive wrapped (`cause`) by whoever raised it.
  const code = codeOf(error) ?? codeOf((error as { cause?: unknown } | null)?.cause);
  switch (code) {
    case 'E_EMPTY_RESPONSE':
      return { cause: 'empty_response', message };
    case 'E_STALLED':
      return { cause: 'stalled', message };
    case 'E_ABORTED':
      return { cause: 'aborted', message };
    case 'E_MALFORMED_RESPONSE':
    case 'E_MALFORMED_CHUNK':
      return { cause: 'malformed_chunk', message };
    case 'ECONNREFUSED':
      return { cause: 'connection', message: `connection refused: ${message}` };
  }
  if (code !== undefined && CANNOT_CONNECT.has(code)) return { cause: 'connection', message: `cannot connect: ${message}` };
  if (code !== undefined && RESET.has(code)) return { cause: 'reset', message: `connection reset: ${message}` };
  return { cause: 'other', message };
}
