/**
 * Why a transfer ended early, as `FailureCause` plus one readable line. The abort reasons
 * servebench raises itself carry their cause; socket errors are classified by their code.
 */
import type { FailureCause } from '../types.js';

/** Raised into a request that received no byte for the idle timeout. */
export class StalledError extends Error {
  override name = 'StalledError';
}

/** Raised into in-flight requests when the run is interrupted. */
export class AbortedError extends Error {
  override name = 'AbortedError';
}

/** A response whose HTTP framing cannot be read (status line, headers, chunk sizes). */
export class MalformedResponseError extends Error {
  override name = 'MalformedResponseError';
  constructor(detail: string) {
    super(`malformed HTTP response: ${detail}`);
  }
}

/** The server closed the connection before the response was complete. */
export class ConnectionClosedError extends Error {
  override name = 'ConnectionClosedError';
  readonly code = 'ECONNRESET';
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Classifies a transport error; `MalformedChunkError` from a backend parser and
 * `MalformedResponseError` from the HTTP parser map to `malformed_chunk`.
 */
export function classifyTransportError(error: unknown): { cause: FailureCause; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StalledError) return { cause: 'stalled', message };
  if (error instanceof AbortedError) return { cause: 'aborted', message };
  if (error instanceof MalformedResponseError) return { cause: 'malformed_chunk', message };
  if (error instanceof Error && error.name === 'MalformedChunkError') return { cause: 'malformed_chunk', message };
  const code = errorCode(error) ?? errorCode((error as { cause?: unknown } | null)?.cause);
  if (code === 'ECONNREFUSED') return { cause: 'connection', message: `connection refused: ${message}` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return { cause: 'connection', message: `cannot connect: ${message}` };
  }
  if (code !== undefined && RESET_CODES.has(code)) return { cause: 'reset', message: `connection reset: ${message}` };
  return { cause: 'other', message };
}
