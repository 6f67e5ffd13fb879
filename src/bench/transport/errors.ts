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

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Classifies a transport error; `MalformedChunkError` from a parser maps to `malformed_chunk`. */
export function classifyTransportError(error: unknown): { cause: FailureCause; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StalledError) return { cause: 'stalled', message };
  if (error instanceof AbortedError) return { cause: 'aborted', message };
  if (error instanceof Error && error.name === 'MalformedChunkError') return { cause: 'malformed_chunk', message };
  const code = errorCode(error) ?? errorCode((error as { cause?: unknown } | null)?.cause);
  if (code === 'ECONNREFUSED') return { cause: 'connection', message: `connection refused: ${message}` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'EHOSTUNREACH') {
    return { cause: 'connection', message: `cannot connect: ${message}` };
  }
  if (code !== undefined && RESET_CODES.has(code)) return { cause: 'reset', message: `connection reset: ${message}` };
  return { cause: 'other', message };
}
