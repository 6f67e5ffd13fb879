/**
 * Why a transfer ended early, as typed errors the transport hands back (socket errors pass through
 * as Node raised them). What each means for the run, its failure cause, is the runner's to say.
 */
import { ServebenchError } from '../../core/errors.js';

/** Raised into a request that received no byte for the idle timeout. */
export class StalledError extends ServebenchError {
  readonly code = 'E_STALLED';
}

/** Raised into in-flight requests when the run is interrupted. */
export class AbortedError extends ServebenchError {
  readonly code = 'E_ABORTED';
}

/** A response whose HTTP framing cannot be read (status line, headers, chunk sizes). */
export class MalformedResponseError extends ServebenchError {
  readonly code = 'E_MALFORMED_RESPONSE';
  constructor(detail: string) {
    super(`malformed HTTP response: ${detail}`);
  }
}

/** The server closed the connection before the response was complete. */
export class ConnectionClosedError extends ServebenchError {
  readonly code = 'E_CONNECTION_CLOSED';
}

/** A complete response with a status other than 200; the message is the reference's `<reason>: <body>`. */
export class BadStatusError extends ServebenchError {
  readonly code = 'E_BAD_STATUS';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A 200 response without a body byte. */
export class EmptyResponseError extends ServebenchError {
  readonly code = 'E_EMPTY_RESPONSE';
}
